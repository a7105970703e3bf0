import { createHash } from 'node:crypto';
import css from './dashboard.css';

/**
 * The stylesheet, bundled as text (esbuild's `text` loader) and served under a name that carries
 * its content hash, so browsers may keep it for a year and a new version is a new URL.
 */
export const stylesheetText: string = css;

export const stylesheetFile = `dashboard.${createHash('sha256').update(css).digest('hex').slice(0, 12)}.css`;

export const assetsPath = '/dashboard/assets';

export const stylesheetPath = `${assetsPath}/${stylesheetFile}`;
