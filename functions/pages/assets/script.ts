import script from './dashboard.client.js';
import { contentName } from './content-name';

/**
 * The dashboard's one script (a few KB: copy buttons, confirmation dialogs, live updates), bundled
 * as text like the stylesheet for the one function that serves it.
 */
export const scriptText: string = script;

export const scriptFile = contentName(script, 'js');
