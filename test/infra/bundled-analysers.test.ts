import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFunctionBundle } from '../../lib/constructs/function-bundle';
import { lastLineOfLambdaNode } from './lambda-node-process';
import { deployedEnvironment, projectRoot, serviceFunctions } from './service-functions';

/**
 * Lints `files` in a worker thread of the function's bundle as deployed (the sast analyser's pool
 * starts its workers on the bundle's own module, lint-pool.ts), in a fresh process of Lambda's node
 * line. Answers the worker's outcomes.
 */
const lintInDeployedWorker = async (
  bundleDir: string,
  environment: Record<string, string>,
  root: string,
  files: string[],
): Promise<any[]> => {
  const tasks = files.map((path) => ({
    absolutePath: join(root, path),
    path,
    language: path.endsWith('.ts') ? 'TypeScript' : 'JavaScript',
    size: 100,
  }));
  const script = [
    "import { Worker } from 'node:worker_threads';",
    `const worker = new Worker(new URL(${JSON.stringify(pathToFileURL(join(bundleDir, 'index.mjs')).href)}), { workerData: { projectAutomationServiceSastLintWorker: true } });`,
    "worker.on('message', (response) => { console.log(JSON.stringify(response.outcomes)); process.exit(0); });",
    "worker.on('error', (error) => { console.error(error); process.exit(1); });",
    `worker.postMessage({ id: 1, root: ${JSON.stringify(root)}, options: {}, tasks: ${JSON.stringify(tasks)} });`,
  ].join('\n');
  // A file, not `-e`: a worker inherits its parent's execArgv, and refuses --input-type.
  const scriptFile = join(bundleDir, 'lint-in-worker.mjs');
  writeFileSync(scriptFile, script);
  return (await lastLineOfLambdaNode([scriptFile], environment)) as any[];
};

// Tests run the analysers from the TypeScript sources; these run them as Lambda does, from the
// bundle (index.mjs, its chunks and its shipped modules), where a package can resolve to another
// build than node picks (esquery's `module` build once made every file fail to parse).
describe('the sast analyser, from each bundle that carries it', () => {
  const functions = serviceFunctions();
  const workDir = mkdtempSync(join(tmpdir(), 'pas-analysers-'));
  const tree = join(workDir, 'tree');
  mkdirSync(join(tree, 'src'), { recursive: true });
  writeFileSync(join(tree, 'src', 'run.js'), 'export const run = (code) => eval(code);\n');
  writeFileSync(join(tree, 'src', 'query.ts'), 'export const query = (input: string): unknown => eval(input);\n');

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it.each(['workers/security-job', 'workers/review-job', 'workflow-stages/verify'])(
    '%s lints JavaScript and TypeScript in its worker thread and reports eval in both',
    async (handler) => {
      const fn = functions.get(handler);
      if (!fn) throw new Error(`${handler} is not a function of the app`);
      const bundleDir = join(workDir, handler.replace(/\W/g, '-'));
      writeFunctionBundle({ projectRoot, ...fn.bundle, sourceMaps: false }, bundleDir);

      const outcomes = await lintInDeployedWorker(bundleDir, deployedEnvironment(fn.description), tree, ['src/run.js', 'src/query.ts']);
      expect(outcomes.map((outcome) => [outcome.kind, outcome.messages?.map((m: { ruleId: string }) => m.ruleId), outcome.error])).toEqual([
        ['analysed', ['no-eval'], undefined],
        ['analysed', ['no-eval'], undefined],
      ]);
    },
  );
});
