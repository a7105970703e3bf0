import { createHash } from 'node:crypto';
import script from './dashboard.client.js';
import { assetsPath } from './stylesheet';

/**
 * The dashboard's one script (a few KB: copy buttons, confirmation dialogs, live updates), bundled
 * as text like the stylesheet and served under a name that carries its content hash.
 */
export const scriptText: string = script;

export const scriptFile = `dashboard.${createHash('sha256').update(script).digest('hex').slice(0, 12)}.js`;

export const scriptPath = `${assetsPath}/${scriptFile}`;
