import css from './dashboard.css';
import { contentName } from './content-name';

/** The stylesheet, bundled as text (esbuild's `text` loader) for the one function that serves it. */
export const stylesheetText: string = css;

export const stylesheetFile = contentName(css, 'css');
