/**
 * `npm run stack-trace -- <handler>`: maps a stack trace logged by a deployed function (which has
 * no source map, `docs/performance.md`) to the sources: paste the stack or the function's JSON log
 * line on stdin. Run it on the commit that was deployed; `<handler>` as in the route table
 * (`projects/get`, `workers/dispatch`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mapStackTrace, stackOf } from '../lib/stack-trace/map-stack-trace';
import { functionBundles, rebuiltSourceMaps } from '../lib/stack-trace/rebuilt-bundle';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const handler = process.argv[2];
const bundles = functionBundles(projectRoot);
const bundle = handler ? bundles.get(handler) : undefined;
if (!bundle) {
  console.error(
    `usage: npm run stack-trace -- <handler> < stack.txt\n${handler ? `no function's handler is ${handler}; ` : ''}handlers: ${[...bundles.keys()].sort().join(', ')}`,
  );
  process.exit(2);
}
if (process.stdin.isTTY) console.error('Paste the stack (or the JSON log line), then Ctrl-D.');
const pasted = readFileSync(0, 'utf8');
console.log(mapStackTrace(stackOf(pasted.trim()), await rebuiltSourceMaps(projectRoot, bundle), projectRoot));
