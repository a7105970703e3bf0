import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runCleanups } from './cleanup';
import { startBenchRuntime } from './local-runtime';
import { type Check, heading, printChecks, writeJson } from './report';
import { benchBundles } from './section-bundles';
import { benchCapacity } from './section-capacity';
import { benchHttp } from './section-http';

/**
 * `npm run bench`: bundle size and cold init of every function, latency and throughput of the local
 * runtime, and DynamoDB capacity per operation. Prints a table per section and a PASS/FAIL summary,
 * writes everything to bench/results.json, and exits 0 whatever the verdicts (1 only if it crashes).
 */

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const quick = process.argv.includes('--quick');
/** `--only=bundles,http,capacity` runs some sections only (all by default). */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const wants = (section: 'bundles' | 'http' | 'capacity'): boolean => only === undefined || only.includes(section);

const settings = {
  bundles: { initRuns: quick ? 5 : 15 },
  http: { requests: quick ? { 1: 50, 16: 200 } : { 1: 300, 16: 2000 }, warmupRequests: quick ? 20 : 100 },
  capacity: { projects: 1000, perPage: 20, deepPage: 50, seedConcurrency: 8 },
};

const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url));

/** Ctrl-C still stops DynamoDB Local and removes the temporary directories. */
const onInterrupt = (): void => {
  console.error('\nInterrupted: cleaning up…');
  void runCleanups().finally(() => process.exit(130));
};

const machine = () => ({
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
});

const main = async (): Promise<void> => {
  const started = Date.now();
  const startMachine = machine();
  console.log(`Project Automation Service bench: node ${startMachine.node}, ${startMachine.cpus} CPUs (${startMachine.cpuModel}), load average ${startMachine.loadAverage.join(' ')}${quick ? ' [--quick]' : ''}`);

  const bundles = wants('bundles') ? await benchBundles(settings.bundles) : undefined;

  let http: Awaited<ReturnType<typeof benchHttp>> | undefined;
  let capacity: Awaited<ReturnType<typeof benchCapacity>> | undefined;
  if (wants('http') || wants('capacity')) {
    console.log('\nStarting the local runtime on DynamoDB Local (in memory)…');
    const runtime = await startBenchRuntime();
    try {
      if (wants('http')) http = await benchHttp(runtime, settings.http);
      if (wants('capacity')) capacity = await benchCapacity(runtime, settings.capacity);
    } finally {
      await runtime.stop();
    }
  }

  const checks: Check[] = [...(bundles?.checks ?? []), ...(http?.checks ?? []), ...(capacity?.checks ?? [])];
  heading('4. Summary');
  printChecks(checks);

  const durationS = Math.round((Date.now() - started) / 100) / 10;
  await writeJson(resultsFile, {
    date: new Date(started).toISOString(),
    durationS,
    machine: { atStart: startMachine, atEnd: machine() },
    settings,
    bundles: bundles && { ...bundles, checks: undefined },
    http: http && { results: http.results, reference: http.reference },
    capacity: capacity && { ...capacity, checks: undefined },
    checks,
  });
  console.log(`\nFull results: ${resultsFile} (${durationS} s in all).`);
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
