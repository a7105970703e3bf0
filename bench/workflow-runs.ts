import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionSummary } from '../lib/local/step-functions/executions';
import { deferCleanup } from './cleanup';
import { type BenchRuntime, newBenchAccount } from './local-runtime';
import { startLoopbackServer } from './loopback-server';

/**
 * How the workflows section runs one workflow: a fixture git repository, a project on it, a
 * webhook to a receiver of its own that notes when each workflow's terminal event arrives, and one
 * workflow from its POST to that event, with the final record and its Step Functions execution.
 */

export const stageNames = ['intake', 'build', 'verify', 'prove', 'iterate', 'package'] as const;
export type StageName = (typeof stageNames)[number];

/** The events that end a workflow; the receiver takes the first one per workflow. */
const terminalEvents = ['workflow.completed', 'workflow.failed', 'workflow.cancelled'];

const fence = '```';

export type WorkflowPath = 'plain' | 'iterate';

/**
 * The prompt of each path, for the `local` provider (it writes the fenced files as they are).
 * plain: one good file, verification passes, iterate is skipped. iterate: a broken file and a good
 * one; verify fails, the fix drops the broken file, verify and prove run again and pass.
 */
export const promptFor = (path: WorkflowPath, index: number): string =>
  path === 'plain'
    ? `Add a farewell helper\n\n${fence}js src/farewell-${index}.js\nexport const farewell = (name) => \`Goodbye, \${name}!\`;\n${fence}\n`
    : `Add two helpers\n\n${fence}js src/broken.js\nexport const broken = (;\n${fence}\n\n${fence}ts src/fine.ts\nexport const fine: number = 1;\n${fence}\n`;

const fixtureFiles: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'greeter', version: '1.0.0', type: 'module', main: 'src/index.js' }, null, 2)}\n`,
  'README.md': '# Greeter\n\nSays hello.\n',
  'src/index.js': 'export const greet = (name) => `Hello, ${name}!`;\n',
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  'src/strings.ts': 'export const shout = (text: string): string => text.toUpperCase();\n',
  'test/index.test.js': "import { greet } from '../src/index.js';\nif (greet('x') !== 'Hello, x!') throw new Error('greet');\n",
};

export interface FixtureRepository {
  dir: string;
  /** file:/// URL, as a project's `repository`. */
  url: string;
  commit: string;
  remove(): Promise<void>;
}

/** A real git repository (git CLI) in a temporary folder: one commit on `main`. */
export const fixtureRepository = async (): Promise<FixtureRepository> => {
  const dir = await mkdtemp(join(tmpdir(), 'pas-bench-repo-'));
  const remove = deferCleanup(() => rm(dir, { recursive: true, force: true }));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', '-c', 'init.defaultBranch=main', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  try {
    git('init', '-q');
    for (const [path, content] of Object.entries(fixtureFiles)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    git('add', '-A');
    git('commit', '-q', '-m', 'Initial commit');
    return { dir, url: `file://${dir}`, commit: git('rev-parse', 'HEAD'), remove };
  } catch (error) {
    await remove();
    throw error;
  }
};

export interface TerminalArrival {
  type: string;
  /** performance.now() when the request's headers arrived. */
  atMs: number;
  /** Date.now() at the same moment, to compare with the service's timestamps. */
  wallMs: number;
}

/** A webhook receiver that notes the first terminal event of each workflow (by workflow id). */
export interface CompletionReceiver {
  url: string;
  /** Resolves with the workflow's terminal event, or undefined after `timeoutMs`. */
  waitFor(workflowId: string, timeoutMs: number): Promise<TerminalArrival | undefined>;
  /** Requests that were not a terminal event of a workflow (should stay 0: the webhook asks for those only). */
  readonly strays: number;
  close(): Promise<void>;
}

export const startCompletionReceiver = async (): Promise<CompletionReceiver> => {
  const arrived = new Map<string, TerminalArrival>();
  const waiting = new Map<string, (arrival: TerminalArrival) => void>();
  let strays = 0;

  const server = await startLoopbackServer((req, res) => {
    const atMs = performance.now();
    const wallMs = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
      res.end('ok');
      let event: { type?: unknown; data?: { workflow_id?: unknown; id?: unknown } };
      try {
        event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof event;
      } catch {
        strays += 1;
        return;
      }
      // workflow.completed carries workflow_id; failed and cancelled carry the workflow's snapshot.
      const id = event.data?.workflow_id ?? event.data?.id;
      if (typeof event.type !== 'string' || !terminalEvents.includes(event.type) || typeof id !== 'string') {
        strays += 1;
        return;
      }
      if (arrived.has(id)) return; // a redelivery
      const arrival = { type: event.type, atMs, wallMs };
      arrived.set(id, arrival);
      waiting.get(id)?.(arrival);
      waiting.delete(id);
    });
  });
  const { port } = server;

  return {
    url: `http://127.0.0.1:${port}/workflows`,
    waitFor(workflowId, timeoutMs) {
      const already = arrived.get(workflowId);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(workflowId);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(workflowId, (arrival) => {
          clearTimeout(timer);
          resolve(arrival);
        });
      });
    },
    get strays() {
      return strays;
    },
    close: server.close,
  };
};

/** The parts of GET /v1/workflows/{id} the section reads. */
interface WorkflowRecord {
  id: string;
  status: string;
  stage_statuses: Record<StageName, string>;
  stage_timings: Record<StageName, { started_at: string | null; completed_at: string | null; duration_ms: number | null; runs: number }>;
  outputs: { iterations: number };
  error: { stage: string | null; message: string } | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface WorkflowRun {
  id: string;
  path: WorkflowPath;
  /** The workflow's final status (from its record). */
  status: string;
  /** The terminal event that arrived, or undefined if none came within the wait. */
  event: string | undefined;
  /** The POST's round trip. */
  postMs: number;
  /** POST sent → the terminal event's arrival at the receiver (performance.now()); NaN if it never came. */
  totalMs: number;
  /** POST sent → the record's completed_at (the service's clock, ms resolution). */
  toCompletedMs: number;
  /** completed_at → the event's arrival: stream, fan-out, delivery queue, dispatch. */
  eventDeliveryMs: number;
  /** Sum of the final record's stage_timings[*].duration_ms (the last run of each stage). */
  stageWorkMs: number;
  /** toCompletedMs − stageWorkMs: transitions, control tasks, API and DynamoDB overhead. */
  orchestrationMs: number;
  /** Final record's duration_ms per stage (null: not run). */
  stageMs: Record<StageName, number | null>;
  /** Runs per stage (verify and prove run twice when the iterate loop is taken). */
  stageRuns: Record<StageName, number>;
  iterations: number;
  /** From the local Step Functions execution (its name is the workflow id). */
  execution: {
    status: string;
    /** States entered. */
    transitions: number;
    retries: number;
    /** Billed transitions: AWS bills a retry as one more. */
    billed: number;
    durationMs: number;
  };
  error: string | undefined;
}

export interface WorkflowTenant {
  key: string;
  projectId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const api = async (
  runtime: BenchRuntime,
  key: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; data: unknown; text: string }> => {
  const response = await fetch(`http://127.0.0.1:${runtime.port}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown }).data;
  } catch {
    data = undefined;
  }
  return { status: response.status, data, text };
};

/**
 * A fresh account with a test key (test-mode webhooks may target this machine), a project on the
 * fixture repository, and one webhook for the terminal workflow events, all through the API.
 */
export const workflowTenant = async (
  runtime: BenchRuntime,
  repository: FixtureRepository,
  receiver: CompletionReceiver,
): Promise<WorkflowTenant> => {
  const { key } = await newBenchAccount(runtime.table, 'workflows', 'test');
  const project = await api(runtime, key, 'POST', '/projects', { name: 'Greeter', repository: repository.url });
  const projectId = (project.data as { id?: string } | undefined)?.id;
  if (project.status !== 201 || !projectId)
    throw new Error(`could not create the project: HTTP ${project.status} ${project.text.slice(0, 300)}`);
  const webhook = await api(runtime, key, 'POST', '/webhooks', {
    url: receiver.url,
    events: terminalEvents,
    description: 'bench workflows',
  });
  if (webhook.status !== 201) throw new Error(`could not create the webhook: HTTP ${webhook.status} ${webhook.text.slice(0, 300)}`);
  return { key, projectId };
};

/** The workflow's execution once it has stopped (its summary is final a moment after the last state). */
const stoppedExecution = async (runtime: BenchRuntime, id: string, timeoutMs: number): Promise<ExecutionSummary | undefined> => {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const execution = runtime.executions().find((e) => e.stateMachineName === 'workflow' && e.name === id);
    if ((execution && execution.status !== 'RUNNING') || performance.now() > deadline) return execution;
    await sleep(5);
  }
};

/** One workflow from its POST to its terminal event, then its final record and execution. */
export const runWorkflow = async (
  runtime: BenchRuntime,
  tenant: WorkflowTenant,
  receiver: CompletionReceiver,
  path: WorkflowPath,
  index: number,
  maxWaitMs: number,
): Promise<WorkflowRun> => {
  const t0 = performance.now();
  const t0Wall = Date.now();
  const created = await api(runtime, tenant.key, 'POST', '/workflows', {
    project_id: tenant.projectId,
    prompt: promptFor(path, index),
    name: `bench ${path} ${index}`,
    config: { ai_provider: 'local' },
  });
  const postMs = performance.now() - t0;
  const id = (created.data as { id?: string } | undefined)?.id;
  if (created.status !== 201 || !id) throw new Error(`POST /v1/workflows answered ${created.status}: ${created.text.slice(0, 300)}`);

  const arrival = await receiver.waitFor(id, maxWaitMs);
  const answer = await api(runtime, tenant.key, 'GET', `/workflows/${id}`);
  if (answer.status !== 200) throw new Error(`GET /v1/workflows/${id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const record = answer.data as WorkflowRecord;
  const execution = await stoppedExecution(runtime, id, 5_000);

  const stageMs = Object.fromEntries(stageNames.map((stage) => [stage, record.stage_timings[stage]?.duration_ms ?? null])) as Record<
    StageName,
    number | null
  >;
  const stageRuns = Object.fromEntries(stageNames.map((stage) => [stage, record.stage_timings[stage]?.runs ?? 0])) as Record<
    StageName,
    number
  >;
  const stageWorkMs = stageNames.reduce((sum, stage) => sum + (stageMs[stage] ?? 0), 0);
  const completedWall = record.completed_at === null ? Number.NaN : Date.parse(record.completed_at);
  const toCompletedMs = completedWall - t0Wall;
  return {
    id,
    path,
    status: record.status,
    event: arrival?.type,
    postMs,
    totalMs: arrival ? arrival.atMs - t0 : Number.NaN,
    toCompletedMs,
    eventDeliveryMs: arrival ? arrival.wallMs - completedWall : Number.NaN,
    stageWorkMs,
    orchestrationMs: toCompletedMs - stageWorkMs,
    stageMs,
    stageRuns,
    iterations: record.outputs?.iterations ?? 0,
    execution: {
      status: execution?.status ?? 'MISSING',
      transitions: execution?.transitions ?? Number.NaN,
      retries: execution?.retries ?? Number.NaN,
      billed: execution ? execution.transitions + execution.retries : Number.NaN,
      durationMs: execution?.stoppedMs === undefined ? Number.NaN : execution.stoppedMs - execution.startedMs,
    },
    error: record.error ? `${record.error.stage ?? '?'}: ${record.error.message}` : undefined,
  };
};

/** `count` workflows one after the other. */
export const runSequential = async (
  runtime: BenchRuntime,
  tenant: WorkflowTenant,
  receiver: CompletionReceiver,
  path: WorkflowPath,
  count: number,
  maxWaitMs: number,
): Promise<{ runs: WorkflowRun[]; elapsedMs: number }> => {
  const started = performance.now();
  const runs: WorkflowRun[] = [];
  for (let i = 0; i < count; i += 1) runs.push(await runWorkflow(runtime, tenant, receiver, path, i, maxWaitMs));
  return { runs, elapsedMs: performance.now() - started };
};

/** `count` workflows started together (each POST sent at once), until every one has ended. */
export const runConcurrent = async (
  runtime: BenchRuntime,
  tenant: WorkflowTenant,
  receiver: CompletionReceiver,
  path: WorkflowPath,
  count: number,
  maxWaitMs: number,
): Promise<{ runs: WorkflowRun[]; elapsedMs: number }> => {
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: count }, (_, i) => runWorkflow(runtime, tenant, receiver, path, 1000 + i, maxWaitMs)),
  );
  return { runs, elapsedMs: performance.now() - started };
};
