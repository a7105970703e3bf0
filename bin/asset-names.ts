/**
 * Writes functions/pages/assets/asset-names.ts: the content-hashed names of the dashboard's
 * stylesheet and script, so a page links to them without carrying their text (only the asset
 * function does). `--check` fails when the file is stale, as `sdk:check` does for the SDK.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { contentName } from '../functions/pages/assets/content-name';

const assets = new URL('../functions/pages/assets/', import.meta.url);
const target = new URL('asset-names.ts', assets);

const [css, script] = await Promise.all([
  readFile(new URL('dashboard.css', assets), 'utf8'),
  readFile(new URL('dashboard.client.js', assets), 'utf8'),
]);
const expected = `// Written by \`npm run assets:names\` from dashboard.css and dashboard.client.js; a unit test fails when it is stale.
export const stylesheetFile = '${contentName(css, 'css')}';
export const scriptFile = '${contentName(script, 'js')}';
`;

if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== expected) {
    console.error('functions/pages/assets/asset-names.ts is stale: run `npm run assets:names`.');
    process.exit(1);
  }
  console.log('The asset names match the stylesheet and the script.');
} else {
  await writeFile(target, expected);
  console.log(`Wrote ${target.pathname}`);
}
