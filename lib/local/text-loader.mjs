// Module hook of the local runtime: a stylesheet imported by a page module is its text, exactly as
// esbuild's `text` loader bundles it into the Lambda functions (see ServiceFunction).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !(url.endsWith('.css') || url.endsWith('.client.js'))) return nextLoad(url, context);
  const text = await readFile(fileURLToPath(url), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
