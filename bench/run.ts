import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runCleanups } from './cleanup';
import { probeNode } from './lambda-node';
import { startBenchRuntime } from './local-runtime';
import { type Check, type Figure, heading, printChecks, printFigures, writeJson } from './report';
import { benchBundles } from './section-bundles';
import { benchCapacity } from './section-capacity';
import { benchDashboard } from './section-dashboard';
import { benchHttp } from './section-http';
import { benchRateLimit } from './section-ratelimit';
import { benchScans } from './section-scans';
import { benchSdk } from './section-sdk';
import { benchWebhooks } from './section-webhooks';
import { benchWorkflows } from './section-workflows';

/**
 * `npm run bench`: bundle size and cold init of every function, latency and throughput of the local
 * runtime, DynamoDB capacity per operation, webhook delivery throughput and latency, and AI workflows
 * end to end (time, stage/orchestration split, Step Functions transitions and their cost), and the
 * security scanners on a generated 1,000-file repository (beside the secretlint CLI). Prints a
 * table per section and a summary (PASS/FAIL where a target exists, the plain numbers elsewhere),
 * writes everything to bench/results.json, and exits 0 whatever the verdicts (1 only if it crashes).
 */

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const quick = process.argv.includes('--quick');
/** `--only=bundles,http,capacity,ratelimit,webhooks,workflows,scans,sdk,dashboard` runs some sections only (all by default). */
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
/** `--functions=projects/get,oauth/token` limits the bundles section to those functions (`held`: every /v1 and /oauth one). */
const onlyFunctions = process.argv
  .find((arg) => arg.startsWith('--functions='))
  ?.slice('--functions='.length)
  .split(',');
const sections = ['bundles', 'http', 'capacity', 'ratelimit', 'webhooks', 'workflows', 'scans', 'sdk', 'dashboard'] as const;
type Section = (typeof sections)[number];
const wants = (section: Section): boolean => only === undefined || only.includes(section);

const settings = {
  // --quick (CI) times the functions held to the targets; the dashboard pages and /docs are reported by the full run.
  bundles: { initRuns: quick ? 5 : 15, functions: onlyFunctions ?? (quick ? ['held'] : undefined) },
  http: { requests: quick ? { 1: 50, 16: 200 } : { 1: 300, 16: 2000 }, warmupRequests: quick ? 20 : 100 },
  capacity: { projects: 1000, perPage: 20, deepPage: 50, seedConcurrency: 8 },
  ratelimit: { seconds: quick ? 20 : 60 },
  webhooks: {
    throughput: quick
      ? [
          { name: '(a)', webhooks: 1, events: 200 },
          { name: '(b)', webhooks: 50, events: 10 },
        ]
      : [
          { name: '(a)', webhooks: 1, events: 1000 },
          { name: '(b)', webhooks: 50, events: 100 },
        ],
    warmupEvents: quick ? 200 : 500,
    recordConcurrency: 4,
    eventsPerTransaction: 25,
    // As asked (one every 20 ms), and slower, where nothing queues behind the fan-out.
    latency: [
      { events: quick ? 50 : 200, intervalMs: 20 },
      { events: quick ? 30 : 100, intervalMs: 100 },
    ],
    maxWaitMs: quick ? 60_000 : 300_000,
    probeCalls: quick ? 200 : 500,
  },
  workflows: {
    warmup: { plain: 2, iterate: 1 },
    sequential: quick ? 5 : 20,
    concurrent: quick ? 5 : 20,
    iterate: quick ? 3 : 10,
    maxWaitMs: quick ? 60_000 : 300_000,
    pricePerThousandTransitionsUsd: 0.025,
  },
  // --quick times the CLIs and the diagnostic rows once each (the scanners' warm-up warmed the tree).
  scans: { files: 1000, seed: 1, warmup: 1, runs: quick ? 2 : 5, others: quick ? { warmup: 0, runs: 1 } : { warmup: 1, runs: 5 } },
  sdk: {},
  dashboard: { requests: quick ? 20 : 100, warmup: quick ? 5 : 20 },
};

const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url));

interface SavedResults {
  date?: string;
  /** When each section was last measured. */
  sectionDates?: Partial<Record<Section, string>>;
  settings?: Partial<Record<Section, unknown>>;
  checks?: Check[];
  figures?: Figure[];
  [section: string]: unknown;
}

/**
 * With `--only`, the sections not run keep their last results in results.json (with their date)
 * instead of disappearing from it.
 */
const mergedResults = async (date: string, fresh: Record<Section, unknown>, checks: Check[], figures: Figure[]) => {
  let previous: SavedResults = {};
  if (only !== undefined) {
    try {
      previous = JSON.parse(await readFile(resultsFile, 'utf8')) as SavedResults;
    } catch {
      previous = {};
    }
  }
  const kept = sections.filter((section) => !wants(section) && previous[section] !== undefined && previous[section] !== null);
  const pick = <T>(section: Section, now: T, before: T): T => (kept.includes(section) ? before : now);
  return {
    sectionDates: Object.fromEntries(
      sections.flatMap((section) =>
        wants(section) ? [[section, date]] : kept.includes(section) ? [[section, previous.sectionDates?.[section] ?? previous.date]] : [],
      ),
    ),
    settings: Object.fromEntries(
      sections.map((section) => [section, pick<unknown>(section, settings[section], previous.settings?.[section])]),
    ),
    ...Object.fromEntries(sections.map((section) => [section, pick(section, fresh[section], previous[section])])),
    checks: [...checks, ...(previous.checks ?? []).filter((check) => kept.includes(check.section as Section))],
    figures: [...figures, ...(previous.figures ?? []).filter((figure) => kept.includes(figure.section as Section))],
  };
};

/** Ctrl-C still stops DynamoDB Local and removes the temporary directories. */
const onInterrupt = (): void => {
  console.error('\nInterrupted: cleaning up…');
  void runCleanups().finally(() => process.exit(130));
};

const machine = () => ({
  node: process.version,
  /** The node the cold-init probes ran (Lambda's line when `npm run bench:node` fetched it). */
  probeNode: probeNode().version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
});

/** How long each step of this run took, in seconds: every section, and the local runtime's start and stop. */
const stepSeconds: Record<string, number> = {};
const timed = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
  const began = Date.now();
  try {
    return await run();
  } finally {
    stepSeconds[step] = Math.round((Date.now() - began) / 100) / 10;
  }
};
const section = <T>(name: Section, run: () => Promise<T>): Promise<T | undefined> =>
  wants(name) ? timed(name, run) : Promise.resolve(undefined);

const main = async (): Promise<void> => {
  const started = Date.now();
  const startMachine = machine();
  console.log(
    `Project Automation Service bench: node ${startMachine.node}, ${startMachine.cpus} CPUs (${startMachine.cpuModel}), load average ${startMachine.loadAverage.join(' ')}${quick ? ' [--quick]' : ''}`,
  );
  // The cold-init ratios differ by node line (instructions 1.10–1.14× on node 20 where node 22 counts
  // ≤ 1.094×): said before anything is measured, not only under the bundles table.
  if (!probeNode().lambda && wants('bundles'))
    console.log(
      `Cold-init probes: node ${probeNode().version}, this machine's, not Lambda's nodejs22.x line. Run \`npm run bench:node\` first (3 s, from the npm registry) to measure what Lambda runs.`,
    );

  const bundles = await section('bundles', () => benchBundles(settings.bundles));

  let http: Awaited<ReturnType<typeof benchHttp>> | undefined;
  let capacity: Awaited<ReturnType<typeof benchCapacity>> | undefined;
  let ratelimit: Awaited<ReturnType<typeof benchRateLimit>> | undefined;
  let webhooks: Awaited<ReturnType<typeof benchWebhooks>> | undefined;
  let workflows: Awaited<ReturnType<typeof benchWorkflows>> | undefined;
  let dashboard: Awaited<ReturnType<typeof benchDashboard>> | undefined;
  if (wants('http') || wants('capacity') || wants('ratelimit') || wants('webhooks') || wants('workflows') || wants('dashboard')) {
    console.log('\nStarting the local runtime on DynamoDB Local (in memory)…');
    const runtime = await timed('runtime start', () => startBenchRuntime());
    try {
      http = await section('http', () => benchHttp(runtime, settings.http));
      capacity = await section('capacity', () => benchCapacity(runtime, settings.capacity));
      ratelimit = await section('ratelimit', () => benchRateLimit(runtime, settings.ratelimit));
      webhooks = await section('webhooks', () => benchWebhooks(runtime, settings.webhooks));
      workflows = await section('workflows', () => benchWorkflows(runtime, settings.workflows));
      dashboard = await section('dashboard', () => benchDashboard(runtime, settings.dashboard));
    } finally {
      await timed('runtime stop', () => runtime.stop());
    }
  }
  // After the runtime is stopped: DynamoDB Local's JVM would compete for the CPUs.
  const scans = await section('scans', () => benchScans(settings.scans));
  const sdk = await section('sdk', () => benchSdk());

  const checks: Check[] = [
    ...(bundles?.checks ?? []),
    ...(http?.checks ?? []),
    ...(capacity?.checks ?? []),
    ...(ratelimit?.checks ?? []),
    ...(webhooks?.checks ?? []),
    ...(scans?.checks ?? []),
    ...(dashboard?.checks ?? []),
  ];
  const figures: Figure[] = [
    ...(webhooks?.figures ?? []),
    ...(workflows?.figures ?? []),
    ...(scans?.figures ?? []),
    ...(sdk?.figures ?? []),
  ];
  heading('9. Summary');
  if (checks.length > 0 || figures.length === 0) printChecks(checks);
  printFigures(figures);

  const durationS = Math.round((Date.now() - started) / 100) / 10;
  const date = new Date(started).toISOString();
  const fresh: Record<Section, unknown> = {
    bundles: bundles && { ...bundles, checks: undefined },
    http: http && { results: http.results, reference: http.reference },
    capacity: capacity && { ...capacity, checks: undefined },
    ratelimit: ratelimit && { rows: ratelimit.rows },
    webhooks: webhooks && { ...webhooks, checks: undefined, figures: undefined },
    workflows: workflows && { ...workflows, figures: undefined },
    scans: scans && { ...scans, checks: undefined, figures: undefined },
    sdk: sdk && { ...sdk, figures: undefined },
    dashboard: dashboard && { rows: dashboard.rows },
  };
  const {
    sectionDates,
    settings: savedSettings,
    checks: savedChecks,
    figures: savedFigures,
    ...savedSections
  } = await mergedResults(date, fresh, checks, figures);
  await writeJson(resultsFile, {
    date,
    durationS,
    machine: { atStart: startMachine, atEnd: machine() },
    sectionsRun: sections.filter(wants),
    stepSeconds,
    sectionDates,
    settings: savedSettings,
    ...savedSections,
    checks: savedChecks,
    figures: savedFigures,
  });
  const steps = Object.entries(stepSeconds).map(([step, s]) => `${step} ${s} s`);
  console.log(`\nFull results: ${resultsFile} (${durationS} s in all: ${steps.join(', ')}).`);
};

process.once('SIGINT', onInterrupt);
process.once('SIGTERM', onInterrupt);
main()
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    console.error('\nThe bench failed:', error);
    await runCleanups();
    process.exit(1);
  });
