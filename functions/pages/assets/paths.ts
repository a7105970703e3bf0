import { scriptFile, stylesheetFile } from './asset-names';

/** Where pages link the stylesheet and script: names only, so a page's bundle carries neither text. */
export const assetsPath = '/dashboard/assets';

export const stylesheetPath = `${assetsPath}/${stylesheetFile}`;

export const scriptPath = `${assetsPath}/${scriptFile}`;
