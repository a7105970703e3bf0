/**
 * Spreads the sast scanner's files over the cores the function has: a pool of worker threads,
 * each with its own `fileLinter` (ESLint loaded and configured once per thread, kept between
 * scans), taking chunks of `CHUNK_FILES` files, largest files first, as it finishes the previous
 * one (with one more chunk queued behind the one it works on).
 *
 * A worker runs this very module: in a Lambda bundle, `import.meta.url` is the bundle (the module
 * sees the worker flag at load and serves requests); run from the TypeScript sources (tests, the
 * bench), the worker registers tsx's loader first. Workers are unref'd: an idle pool never keeps a process
 * alive. A worker that fails or exits mid-chunk is dropped and its chunk is linted in the calling
 * thread, so a scan never loses files to a crashed worker.
 */
// Not `import { createRequire }`: a Lambda bundle's banner declares that name at its top.
import * as nodeModule from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { fileLinter, type FileLinter, type FileLinterOptions, type FileOutcome, type LintTask } from './file-linter';

/**
 * Files per message to a worker: small enough to balance the load, large enough that messaging
 * costs nothing. 8 was no faster (six interleaved scans of the bench tree at load 8: 38.7 s vs 38.4 s).
 */
export const CHUNK_FILES = 16;

const WORKER_FLAG = 'projectAutomationServiceSastLintWorker';

interface LintRequest {
  id: number;
  root: string;
  options: FileLinterOptions;
  tasks: LintTask[];
}

interface LintResponse {
  id: number;
  outcomes: FileOutcome[];
}

/** The linter of this thread for `root` and `options` (the last ones used are kept). */
let current: { key: string; lint: FileLinter } | undefined;
export const threadLinter = (root: string, options: FileLinterOptions = {}): FileLinter => {
  const key = JSON.stringify([root, options.prefilter !== false]);
  if (current?.key !== key) current = { key, lint: fileLinter(root, options) };
  return current.lint;
};

export const lintInThread = async (root: string, tasks: readonly LintTask[], options: FileLinterOptions = {}): Promise<FileOutcome[]> => {
  const lint = threadLinter(root, options);
  const outcomes: FileOutcome[] = [];
  for (const task of tasks) outcomes.push(await lint(task));
  return outcomes;
};

if (!isMainThread && parentPort && (workerData as Record<string, unknown> | null)?.[WORKER_FLAG] === true) {
  const port = parentPort;
  port.on('message', (request: LintRequest) => {
    void lintInThread(request.root, request.tasks, request.options).then((outcomes) =>
      port.postMessage({ id: request.id, outcomes } satisfies LintResponse),
    );
  });
}

const moduleUrl = new URL(import.meta.url);

/**
 * A worker running this module. From the TypeScript sources (tests, the bench), node 20 gives a
 * worker no loader hooks of its parent (nor honours `--import` in its execArgv): a small script
 * registers tsx's loader in the worker first.
 */
const newWorker = (): Worker => {
  const options = { workerData: { [WORKER_FLAG]: true } };
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, options);
  // The ES module build of `tsx/esm/api` (its CommonJS build cannot register from a worker).
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(nodeModule.createRequire(moduleUrl).resolve('tsx/package.json'))).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
};

interface PooledWorker {
  worker: Worker;
  /** Chunks sent and not answered (two scans at once may share a worker). */
  pending: Map<number, (outcomes: FileOutcome[] | null) => void>;
}

const pool: PooledWorker[] = [];
let nextId = 1;

const drop = (entry: PooledWorker): void => {
  const index = pool.indexOf(entry);
  if (index >= 0) pool.splice(index, 1);
  for (const resolve of entry.pending.values()) resolve(null);
  entry.pending.clear();
  void entry.worker.terminate();
};

const startWorker = (): PooledWorker => {
  const worker = newWorker();
  const entry: PooledWorker = { worker, pending: new Map() };
  worker.on('message', (response: LintResponse) => {
    const resolve = entry.pending.get(response.id);
    entry.pending.delete(response.id);
    if (entry.pending.size === 0) worker.unref();
    resolve?.(response.outcomes);
  });
  worker.on('error', () => drop(entry));
  worker.on('exit', () => drop(entry));
  // After the listeners: a 'message' listener refs the worker's port again, and a worker that never
  // gets a chunk (started by `startWorkers` for a tree then linted in process) would keep the process alive.
  worker.unref();
  pool.push(entry);
  return entry;
};

/** Lints `tasks` on the worker; null when the worker failed (the caller lints them itself). */
const send = (entry: PooledWorker, root: string, options: FileLinterOptions, tasks: LintTask[]): Promise<FileOutcome[] | null> =>
  new Promise((resolve) => {
    const id = nextId++;
    entry.pending.set(id, resolve);
    // Referenced while it works for a scan: the scan's caller awaits it.
    entry.worker.ref();
    entry.worker.postMessage({ id, root, options, tasks } satisfies LintRequest);
  });

/**
 * Starts workers until the pool has `count` (each loads ESLint, typescript and the plugins as it
 * starts), without waiting for them: a scan job calls it before the checkout, so that a new
 * container's workers are ready, or nearly, when the files are.
 */
export const startWorkers = (count: number): void => {
  while (pool.length < count) startWorker();
};

/** Workers alive in the pool (a worker that failed is no longer counted). */
export const poolSize = (): number => pool.length;

/** Lambda's CPU share grows with memory: about one vCPU per 1,769 MB. */
const lambdaMegabytesPerCore = 1769;

/**
 * How many threads a scan may use: the cores the process really has. In Lambda the cores the
 * operating system lists are shared in proportion to the memory size, and a thread beyond that
 * share only adds its start-up and a second copy of the bundle.
 */
export const defaultParallelism = (env: NodeJS.ProcessEnv = process.env): number => {
  const memory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (!Number.isFinite(memory) || memory <= 0) return availableParallelism();
  return Math.max(1, Math.min(availableParallelism(), Math.round(memory / lambdaMegabytesPerCore)));
};

/** Chunks a worker holds at once: it starts the next while the calling thread answers the last and sends another. */
export const CHUNKS_IN_FLIGHT = 2;

/**
 * Lints `tasks` (outcomes in the same order) on `workers` worker threads, each pulling the next
 * chunk when done with one and holding `CHUNKS_IN_FLIGHT`, so that it never waits for the calling
 * thread (which, on a busy machine, waits for a core). The largest files go first: the last chunks,
 * which decide when the scan ends, are the quickest.
 */
export async function lintInWorkers(
  root: string,
  tasks: readonly LintTask[],
  workers: number,
  options: FileLinterOptions = {},
): Promise<FileOutcome[]> {
  startWorkers(workers);
  const outcomes: FileOutcome[] = new Array<FileOutcome>(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => tasks[b]!.size - tasks[a]!.size || a - b);
  let next = 0;
  const claim = (): number[] | undefined => {
    if (next >= order.length) return undefined;
    next += CHUNK_FILES;
    return order.slice(next - CHUNK_FILES, next);
  };
  const drain = async (entry: PooledWorker | undefined): Promise<void> => {
    for (let indices = claim(); indices; indices = claim()) {
      const chunk = indices.map((i) => tasks[i]!);
      const alive = entry && pool.includes(entry) ? entry : undefined;
      const result = alive ? await send(alive, root, options, chunk) : null;
      const done = result ?? (await lintInThread(root, chunk, options));
      done.forEach((outcome, i) => (outcomes[indices[i]!] = outcome));
    }
  };
  const lanes = pool.slice(0, workers).flatMap((entry) => Array.from({ length: CHUNKS_IN_FLIGHT }, () => entry));
  await Promise.all(lanes.map((entry) => drain(entry)));
  return outcomes;
}
