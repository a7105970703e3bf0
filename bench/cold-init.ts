import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { probeNode } from './lambda-node';
import { median, medianInterval, type MedianInterval } from './stats';

/**
 * Cold init of a bundle: a fresh `node` process times its own `await import(bundle)`, then its
 * first request: one call of the bundle's `handler` with an event the function answers without
 * reaching anything outside the process. Work a function defers from import to its first request
 * shows in the second figure, not nowhere.
 */

/** What every Lambda function finds in its environment (the runtime's variables), minus anything real. */
export const lambdaLikeEnvironment = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  // Metrics written as in Lambda (EMF on stdout), so the first request pays for them as it would there.
  POWERTOOLS_METRICS_DISABLED: 'false',
  // Should a first request reach for an AWS service after all, it meets a closed local port, once.
  AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
  AWS_MAX_ATTEMPTS: '1',
} as const;

/** The line carrying the probe's figures; the function's own log lines go to stdout too. */
const resultMarker = '@@cold-init@@';

/**
 * The young generation's first cycle: V8 starts each semi-space at 1 MB, and collects the young
 * generation whenever it fills. Where in that cycle an import begins decides which of its
 * allocations meet a collection. In Lambda the runtime's own start-up allocates first, an amount
 * the bench cannot know; begun always at the same point (node's start), every bundle met the
 * collections at the same place, and one allocating ~110 KB more than the baseline took a whole
 * extra collection that, begun anywhere else, the baseline took too (docs/performance.md,
 * thirteenth pass). So each pair of runs begins at its own point of the cycle, spread evenly over
 * the rounds: the probe allocates that much short-lived memory before its clock starts.
 */
export const youngCycleKb = 1024;

/** Offsets into the young generation's cycle for `runs` rounds: evenly spread, in a shuffled order. */
export const youngOffsetsKb = (runs: number, random: () => number = Math.random): number[] => {
  const offsets = Array.from({ length: runs }, (_, round) => Math.floor(((round + random()) / runs) * youngCycleKb));
  for (let i = offsets.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [offsets[i], offsets[j]] = [offsets[j] as number, offsets[i] as number];
  }
  return offsets;
};

const probeScript = [
  // Short-lived arrays of ~304 bytes each (measured on node 22): offsetKb of the young generation used up before the clock starts.
  '{ let garbage; for (let i = 0; i < Math.round(Number(process.argv[2]) * 1024 / 304); i += 1) garbage = new Array(30); }',
  // Garbage collections as node reports them (delivered a tick after they happen, so read at the end).
  'const gcs = [];',
  'new (process.getBuiltinModule("node:perf_hooks").PerformanceObserver)((list) => gcs.push(...list.getEntries())).observe({ entryTypes: ["gc"] });',
  'const cpu = process.cpuUsage();',
  'const resources = process.resourceUsage();',
  'const started = performance.now();',
  'const bundle = await import(process.argv[1]);',
  'const initMs = performance.now() - started;',
  'const used = process.cpuUsage(cpu);',
  'const after = process.resourceUsage();',
  'const kernel = { systemMs: (after.systemCPUTime - resources.systemCPUTime) / 1000, pageFaults: after.minorPageFault + after.majorPageFault - resources.minorPageFault - resources.majorPageFault };',
  'let first;',
  'if (process.argv[3]) {',
  '  const event = JSON.parse(process.argv[3]);',
  '  const context = { awsRequestId: event.requestContext?.requestId ?? "bench", functionName: "bench", getRemainingTimeInMillis: () => 10000 };',
  '  const response = await bundle.handler(event, context);',
  '  const total = process.cpuUsage(cpu);',
  '  first = { firstMs: performance.now() - started, firstCpuMs: (total.user + total.system) / 1000, firstStatus: response?.statusCode };',
  '}',
  'await new Promise((resolve) => setTimeout(resolve, 5));',
  'const inImport = gcs.filter((gc) => gc.startTime >= started && gc.startTime <= started + initMs);',
  'const gc = { gcCount: inImport.length, gcMs: inImport.reduce((sum, entry) => sum + entry.duration, 0) };',
  `process.stdout.write("\\n${resultMarker}" + JSON.stringify({ initMs, cpuMs: (used.user + used.system) / 1000, ...kernel, ...gc, ...first }) + "\\n");`,
  'process.exit(0);',
].join(' ');

const probeTimeoutMs = 20_000;

export interface InitSample {
  /** Wall-clock time of the import (performance.now), ms. */
  initMs: number;
  /** CPU time the process spent during the import (user + system, all threads), ms: far less sensitive to a busy machine. */
  cpuMs: number;
  /** The kernel's share of that CPU time, ms: what the instruction count does not see. */
  systemMs: number;
  /** Page faults during the import: pages the import touched for the first time (each costs the kernel). */
  pageFaults: number;
  /**
   * Garbage collections that began during the import, and their pauses summed, ms. V8's young
   * generation starts at 1 MB, so an import is collected once to three times, ~3 ms each, as where
   * in that cycle it begins decides (`youngCycleKb`; docs/performance.md, thirteenth pass).
   */
  gcCount: number;
  gcMs: number;
  /** Import plus the first request (when an event was given): wall clock, ms. */
  firstMs?: number;
  /** The same, CPU time, ms. */
  firstCpuMs?: number;
  /** What the first request answered. */
  firstStatus?: number;
}

/** One fresh process; resolves to how long its import of `file` (and, given an event, its first request) took. */
export const measureInitOnce = (
  file: string,
  environment: Record<string, string> = {},
  event?: unknown,
  /** Kilobytes of the young generation used up before the import begins (`youngCycleKb`). */
  youngOffsetKb = 0,
): Promise<InitSample> =>
  new Promise((resolve, reject) => {
    const args = [
      '--input-type=module',
      '-e',
      probeScript,
      pathToFileURL(file).href,
      String(youngOffsetKb),
      ...(event === undefined ? [] : [JSON.stringify(event)]),
    ];
    const child = spawn(probeNode().path, args, {
      // A clean environment: nothing of the bench's own (endpoints, tsx loaders) leaks in.
      env: { PATH: process.env.PATH ?? '', ...lambdaLikeEnvironment, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: probeTimeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      try {
        const line = stdout.split('\n').find((text) => text.startsWith(resultMarker));
        resolve(JSON.parse(line?.slice(resultMarker.length) ?? '') as InitSample);
      } catch {
        reject(new Error(`init probe of ${file} failed (${signal ?? `exit ${String(code)}`}): ${stderr.trim().slice(0, 500)}`));
      }
    });
  });

export interface InitPair {
  name: string;
  /** Imports of the function's bundle. */
  samples: InitSample[];
  /** Imports of the baseline, each run right before or after one of the function's. */
  baselineSamples: InitSample[];
  /** Where each round's pair began in the young generation's cycle, KB (`youngOffsetsKb`). */
  offsetsKb: number[];
  medianMs: number;
  baselineMedianMs: number;
  cpuMedianMs: number;
  baselineCpuMedianMs: number;
  systemMedianMs: number;
  baselineSystemMedianMs: number;
  pageFaultsMedian: number;
  baselinePageFaultsMedian: number;
  gcCountMedian: number;
  gcMsMedian: number;
  baselineGcMsMedian: number;
  /** Import plus first request, medians (NaN without an event). */
  firstMedianMs: number;
  baselineFirstMedianMs: number;
  firstCpuMedianMs: number;
  baselineFirstCpuMedianMs: number;
  /** The status the function's first request answered. */
  firstStatus?: number;
  /**
   * The median of the rounds' own ratios (function ÷ the baseline run beside it), wall clock and
   * CPU time, with a 95 % interval for it: the estimate the paired design is made for, since load
   * that drifts between rounds cancels within each pair and not across two medians.
   */
  pairedRatio: MedianInterval & { median: number };
  pairedCpuRatio: MedianInterval & { median: number };
}

const pairedRatioOf = (ratios: readonly number[]): MedianInterval & { median: number } => ({
  median: median(ratios),
  ...medianInterval(ratios),
});

/**
 * `runs` pairs per function, baseline and function back to back, the order alternating from one
 * round to the next, so drifting machine load hits both alike, and both runs of a pair beginning at
 * the same point of the young generation's cycle (`youngOffsetsKb`). One discarded run of each
 * bundle first warms the file cache.
 */
export const measureColdInits = async (
  baselineFile: string,
  /** The baseline's first request: its handler answers any event. */
  baselineEvent: unknown,
  functions: readonly { name: string; file: string; environment?: Record<string, string>; event?: unknown }[],
  runs: number,
  onRound: (round: number) => void = () => {},
): Promise<InitPair[]> => {
  await measureInitOnce(baselineFile, {}, baselineEvent);
  for (const fn of functions) await measureInitOnce(fn.file, fn.environment, fn.event);
  const pairs = functions.map((f) => ({
    name: f.name,
    samples: [] as InitSample[],
    baselineSamples: [] as InitSample[],
    offsetsKb: youngOffsetsKb(runs),
  }));
  for (let round = 0; round < runs; round += 1) {
    for (const [i, fn] of functions.entries()) {
      const pair = pairs[i] as (typeof pairs)[number];
      const offsetKb = pair.offsetsKb[round] ?? 0;
      const baselineRun = () => measureInitOnce(baselineFile, {}, baselineEvent, offsetKb);
      const functionRun = () => measureInitOnce(fn.file, fn.environment, fn.event, offsetKb);
      if (round % 2 === 0) {
        pair.baselineSamples.push(await baselineRun());
        pair.samples.push(await functionRun());
      } else {
        pair.samples.push(await functionRun());
        pair.baselineSamples.push(await baselineRun());
      }
    }
    onRound(round + 1);
  }
  const wall = (samples: InitSample[]) => median(samples.map((s) => s.initMs));
  const cpu = (samples: InitSample[]) => median(samples.map((s) => s.cpuMs));
  const system = (samples: InitSample[]) => median(samples.map((s) => s.systemMs));
  const faults = (samples: InitSample[]) => median(samples.map((s) => s.pageFaults));
  const gcCount = (samples: InitSample[]) => median(samples.map((s) => s.gcCount));
  const gcMs = (samples: InitSample[]) => median(samples.map((s) => s.gcMs));
  const firstWall = (samples: InitSample[]) => median(samples.flatMap((s) => (s.firstMs === undefined ? [] : [s.firstMs])));
  const firstCpu = (samples: InitSample[]) => median(samples.flatMap((s) => (s.firstCpuMs === undefined ? [] : [s.firstCpuMs])));
  return pairs.map((pair) => ({
    ...pair,
    medianMs: wall(pair.samples),
    baselineMedianMs: wall(pair.baselineSamples),
    cpuMedianMs: cpu(pair.samples),
    baselineCpuMedianMs: cpu(pair.baselineSamples),
    systemMedianMs: system(pair.samples),
    baselineSystemMedianMs: system(pair.baselineSamples),
    pageFaultsMedian: faults(pair.samples),
    baselinePageFaultsMedian: faults(pair.baselineSamples),
    gcCountMedian: gcCount(pair.samples),
    gcMsMedian: gcMs(pair.samples),
    baselineGcMsMedian: gcMs(pair.baselineSamples),
    firstMedianMs: firstWall(pair.samples),
    baselineFirstMedianMs: firstWall(pair.baselineSamples),
    firstCpuMedianMs: firstCpu(pair.samples),
    baselineFirstCpuMedianMs: firstCpu(pair.baselineSamples),
    firstStatus: pair.samples[0]?.firstStatus,
    pairedRatio: pairedRatioOf(pair.samples.map((s, i) => s.initMs / (pair.baselineSamples[i] as InitSample).initMs)),
    pairedCpuRatio: pairedRatioOf(pair.samples.map((s, i) => s.cpuMs / (pair.baselineSamples[i] as InitSample).cpuMs)),
  }));
};
