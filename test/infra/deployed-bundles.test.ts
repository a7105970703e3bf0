import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFunctionBundle } from '../../lib/constructs/function-bundle';
import { lastLineOfLambdaNode } from './lambda-node-process';
import { deployedEnvironment, projectRoot, serviceFunctions } from './service-functions';

/** What importing `index.mjs` in a fresh process of Lambda's node line gave: its handler's type and whether undici was loaded. */
const importInFreshNode = (bundleDir: string, environment: Record<string, string>): Promise<{ handler: string; undici: boolean }> =>
  lastLineOfLambdaNode(
    [
      '--input-type=module',
      '-e',
      [
        `const bundle = await import(${JSON.stringify(pathToFileURL(join(bundleDir, 'index.mjs')).href)});`,
        "console.log(JSON.stringify({ handler: typeof bundle.handler, undici: process.moduleLoadList.some((m) => m.includes('undici')) }));",
        'process.exit(0);',
      ].join('\n'),
    ],
    environment,
  );

// The tests import the TypeScript sources; Lambda imports the bundle. A bundle can fail where the
// sources do not: a module left out, a file read beside a module that is not there, a package that
// resolves to another build. Workers are never imported by the bench, so this is where they are.
describe("every function's code, as synth writes it", () => {
  const functions = [...serviceFunctions()];
  const workDir = mkdtempSync(join(tmpdir(), 'pas-deployed-'));
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it("imports in a fresh process of Lambda's node line with the variables the stack gives it, exports a handler, and loads no undici", async () => {
    expect(functions.length).toBeGreaterThan(100);
    const outcomes: [string, unknown][] = [];
    const pending = [...functions];
    const importNext = async (): Promise<void> => {
      for (let next = pending.shift(); next; next = pending.shift()) {
        const [handler, fn] = next;
        const bundleDir = join(workDir, handler.replace(/\W/g, '-'));
        writeFunctionBundle({ projectRoot, ...fn.bundle, sourceMaps: false }, bundleDir);
        outcomes.push([
          handler,
          await importInFreshNode(bundleDir, deployedEnvironment(fn.description)).catch((error: Error) => error.message),
        ]);
        rmSync(bundleDir, { recursive: true, force: true });
      }
    };
    // One bundle written while another imports: the build holds this thread, the import its own process.
    await Promise.all([importNext(), importNext()]);
    expect(outcomes.filter(([, outcome]) => JSON.stringify(outcome) !== JSON.stringify({ handler: 'function', undici: false }))).toEqual(
      [],
    );
  }, 600_000);
});
