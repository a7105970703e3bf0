import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  baselineTarget,
  buildBundle,
  type BuiltBundle,
  functionTargets,
  largestInputs,
  oneFileBuildOptions,
  packageShares,
  packagesBeyond,
} from './bundles';
import { cpus, loadavg } from 'node:os';
import { type InitPair, type InitSample, measureColdInits, youngCycleKb } from './cold-init';
import { probeNode } from './lambda-node';
import { sourceMapBuildOptions, sourceMapNodeOptions } from '../lib/constructs/function-bundle';
import { canCountInstructions, countImportInstructions, type ImportInstructions } from './import-instructions';
import { deferCleanup } from './cleanup';
import { synthesizedEnvironments } from './function-environments';
import { type Check, fixed, heading, passFail, printTable, ratio } from './report';
import { median, percentile, round } from './stats';

/** Section 1: bundle size and cold init of every function beside the baseline. */

/** Issue 17: every function serving `/v1` or `/oauth` within these ratios of the baseline. */
export const targets = { initRatio: 1.1, sizeRatio: 1.3 } as const;

export interface BundleSettings {
  initRuns: number;
  /** Only these functions (`--functions=projects/get,oauth/token`; `held`: every one held to the targets); all by default. */
  functions?: readonly string[];
}

export interface FunctionResult {
  name: string;
  serves: string;
  /** Held to the targets (serves `/v1` or `/oauth`); dashboard pages and `/docs` are reported only. */
  held: boolean;
  /** Every file of the bundle (what is deployed): the size the target holds. */
  sizeKb: number;
  sizeRatio: number;
  /** index.mjs and the chunks it imports statically: what a cold start reads. */
  loadedKb: number;
  loadedRatio: number;
  initMedianMs: number;
  pairedBaselineMedianMs: number;
  /** The median of the paired rounds' ratios (`InitPair.pairedRatio`): the timed verdict's figure. */
  initRatio: number;
  /** Its 95 % interval: wholly at or under the target, wholly over it, or across it (not decided by this run). */
  initRatioInterval: { low: number; high: number; confidence: number };
  initDecided: TimedDecision;
  /** `initMedianMs / pairedBaselineMedianMs`, the figure earlier runs reported, kept to compare with them. */
  initRatioOfMedians: number;
  cpuMedianMs: number;
  pairedBaselineCpuMedianMs: number;
  cpuRatio: number;
  /** The kernel's CPU time of the import and the page faults it took, medians; faults against the paired baseline runs'. */
  systemMedianMs: number;
  pageFaultsMedian: number;
  pageFaultRatio: number;
  /** Garbage collections that began during the import and their pauses summed, medians, beside the paired baseline runs'. */
  gcCountMedian: number;
  gcMsMedian: number;
  pairedBaselineGcMsMedian: number;
  /** Import plus one first request (`bench/first-request-event.ts`), medians, and what it answered. */
  firstMedianMs: number;
  pairedBaselineFirstMedianMs: number;
  firstCpuMedianMs: number;
  pairedBaselineFirstCpuMedianMs: number;
  firstCpuRatio: number;
  firstStatus?: number;
  /** Millions of instructions of the import (callgrind; absent where valgrind is not installed). */
  importInstructionsM?: number;
  instructionRatio?: number;
  instructionPass?: boolean;
  /** Against the baseline bundled as one file (`oneFileBuildOptions`, as the issue measured it): timed (paired medians divided) and counted. */
  initRatioToOneFile: number;
  instructionRatioToOneFile?: number;
  sizePass: boolean;
  initPass: boolean;
  samples: InitSample[];
  pairedBaselineSamples: InitSample[];
}

/** Whether a timed ratio's 95 % interval lies wholly within the target, wholly over it, or across it. */
export type TimedDecision = 'within' | 'over' | 'undecided';

const decisionOf = (interval: { low: number; high: number }, target: number): TimedDecision =>
  interval.high <= target ? 'within' : interval.low > target ? 'over' : 'undecided';

/** The DynamoDB-only baseline bundled as one file with built-ins imported as modules, beside the baseline bundled as the stack does. */
export interface OneFileBaseline {
  sizeKb: number;
  /** Its import, paired with the baseline's: median ms and the median of the pairs' ratios. */
  initMedianMs: number;
  initRatio: number;
  importInstructionsM?: number;
  instructionRatio?: number;
}

export interface BundleSection {
  baseline: {
    sizeKb: number;
    loadedKb: number;
    initMedianMs: number;
    cpuMedianMs: number;
    systemMedianMs: number;
    pageFaultsMedian: number;
    gcCountMedian: number;
    gcMsMedian: number;
    firstCpuMedianMs: number;
    importInstructionsM?: number;
  };
  oneFileBaseline: OneFileBaseline;
  /** (p75 − p25) / median of every baseline import: above ~0.25 the machine was too busy for fine verdicts. */
  baselineSpread: number;
  loadAverageDuringInit: number;
  functions: FunctionResult[];
  /** One function deployed with `-c sourceMaps=true` (its map beside it, node told to read it) against as deployed by default. */
  sourceMaps?: SourceMapCost;
  largest: {
    name: string;
    sizeKb: number;
    topInputs: { path: string; kb: number }[];
    topPackages: { name: string; kb: number }[];
    beyondBaseline: { name: string; kb: number }[];
  };
  checks: Check[];
}

const kb = (bytes: number): number => round(bytes / 1024, 1);

const resultOf = (
  bundle: BuiltBundle,
  baseline: BuiltBundle,
  init: InitPair,
  oneFile: OneFileBaseline,
  instructions?: ImportInstructions,
): FunctionResult => {
  const sizeRatio = bundle.bytes / baseline.bytes;
  const initRatio = init.pairedRatio.median;
  const counted = instructions?.byName.get(bundle.name);
  const instructionRatio = counted === undefined || instructions === undefined ? undefined : counted / instructions.baseline;
  const rounded = (samples: InitSample[]) =>
    samples.map((s, index) => ({
      youngOffsetKb: init.offsetsKb[index],
      initMs: round(s.initMs, 2),
      cpuMs: round(s.cpuMs, 2),
      systemMs: round(s.systemMs, 2),
      pageFaults: s.pageFaults,
      gcCount: s.gcCount,
      gcMs: round(s.gcMs, 2),
      ...(s.firstMs === undefined ? {} : { firstMs: round(s.firstMs, 2), firstCpuMs: round(s.firstCpuMs ?? Number.NaN, 2) }),
    }));
  return {
    name: bundle.name,
    serves: bundle.serves,
    held: bundle.held ?? false,
    sizeKb: kb(bundle.bytes),
    sizeRatio: round(sizeRatio, 3),
    loadedKb: kb(bundle.loadedBytes),
    loadedRatio: round(bundle.loadedBytes / baseline.loadedBytes, 3),
    initMedianMs: round(init.medianMs, 1),
    pairedBaselineMedianMs: round(init.baselineMedianMs, 1),
    initRatio: round(initRatio, 3),
    initRatioInterval: {
      low: round(init.pairedRatio.low, 3),
      high: round(init.pairedRatio.high, 3),
      confidence: round(init.pairedRatio.confidence, 3),
    },
    initDecided: decisionOf(init.pairedRatio, targets.initRatio),
    initRatioOfMedians: round(init.medianMs / init.baselineMedianMs, 3),
    cpuMedianMs: round(init.cpuMedianMs, 1),
    pairedBaselineCpuMedianMs: round(init.baselineCpuMedianMs, 1),
    cpuRatio: round(init.pairedCpuRatio.median, 3),
    systemMedianMs: round(init.systemMedianMs, 1),
    pageFaultsMedian: round(init.pageFaultsMedian, 0),
    pageFaultRatio: round(init.pageFaultsMedian / init.baselinePageFaultsMedian, 3),
    gcCountMedian: init.gcCountMedian,
    gcMsMedian: round(init.gcMsMedian, 1),
    pairedBaselineGcMsMedian: round(init.baselineGcMsMedian, 1),
    firstMedianMs: round(init.firstMedianMs, 1),
    pairedBaselineFirstMedianMs: round(init.baselineFirstMedianMs, 1),
    firstCpuMedianMs: round(init.firstCpuMedianMs, 1),
    pairedBaselineFirstCpuMedianMs: round(init.baselineFirstCpuMedianMs, 1),
    firstCpuRatio: round(init.firstCpuMedianMs / init.baselineFirstCpuMedianMs, 3),
    firstStatus: init.firstStatus,
    ...(counted === undefined || instructionRatio === undefined
      ? {}
      : {
          importInstructionsM: round(counted / 1e6, 2),
          instructionRatio: round(instructionRatio, 3),
          instructionPass: instructionRatio <= targets.initRatio,
          ...(oneFile.instructionRatio === undefined
            ? {}
            : { instructionRatioToOneFile: round(instructionRatio / oneFile.instructionRatio, 3) }),
        }),
    initRatioToOneFile: round(initRatio / oneFile.initRatio, 3),
    sizePass: sizeRatio <= targets.sizeRatio,
    initPass: initRatio <= targets.initRatio,
    samples: rounded(init.samples),
    pairedBaselineSamples: rounded(init.baselineSamples),
  };
};

const checksOf = (results: readonly FunctionResult[]): Check[] =>
  results
    .filter((r) => r.held)
    .flatMap((r) => [
      {
        section: 'bundles',
        name: `${r.name}: bundle ≤ ${targets.sizeRatio}× baseline`,
        pass: r.sizePass,
        detail: `${fixed(r.sizeKb)} KB = ${ratio(r.sizeRatio)}`,
      },
      {
        section: 'bundles',
        name: `${r.name}: cold init ≤ ${targets.initRatio}× baseline`,
        pass: r.initPass,
        detail: `${ratio(r.initRatio)} (paired median; 95 % interval ${intervalText(r.initRatioInterval)}, ${r.initDecided}; ${fixed(r.initMedianMs)} ms vs ${fixed(r.pairedBaselineMedianMs)} ms; CPU time ${ratio(r.cpuRatio)})`,
      },
      ...(r.instructionRatio === undefined
        ? []
        : [
            {
              section: 'bundles',
              name: `${r.name}: import instructions ≤ ${targets.initRatio}× baseline`,
              pass: r.instructionPass === true,
              detail: `${fixed(r.importInstructionsM ?? Number.NaN)} M = ${instructionRatioText(r.instructionRatio)} (callgrind)`,
            },
          ]),
    ]);

const instructionRatioText = (value: number | undefined): string => (value === undefined ? '—' : `${fixed(value, 3)}×`);

const intervalText = ({ low, high }: { low: number; high: number }): string => `${fixed(low, 2)}–${fixed(high, 2)}×`;

const printResults = (section: Omit<BundleSection, 'checks' | 'largest'>, runs: number): void => {
  const { baseline, functions: results } = section;
  printTable(
    'Bundle size and cold init (init = median of fresh node processes timing `await import(bundle)`)',
    [
      { header: 'Function' },
      { header: 'Size KB' },
      { header: 'Size ×base' },
      { header: `Size ≤${targets.sizeRatio}×` },
      { header: 'Loaded KB' },
      { header: 'Loaded ×base' },
      { header: 'Init ms' },
      { header: 'Base ms' },
      { header: 'Init ×base' },
      { header: '95% interval' },
      { header: `Init ≤${targets.initRatio}×` },
      { header: 'Instr M' },
      { header: 'Instr ×base' },
      { header: `Instr ≤${targets.initRatio}×` },
      { header: 'CPU ms' },
      { header: 'CPU ×base' },
      { header: 'Sys ms' },
      { header: 'Faults' },
      { header: 'Faults ×base' },
      { header: 'GCs' },
      { header: 'GC ms' },
      { header: 'Base GC ms' },
      { header: '1st req CPU ms' },
      { header: '1st ×base' },
      { header: '1st status' },
      { header: 'Init ×1-file' },
      { header: 'Instr ×1-file' },
      { header: 'Serves', align: 'left' },
    ],
    [
      [
        'baseline',
        fixed(baseline.sizeKb),
        ratio(1),
        '',
        fixed(baseline.loadedKb),
        ratio(1),
        fixed(baseline.initMedianMs),
        fixed(baseline.initMedianMs),
        ratio(1),
        '',
        '',
        baseline.importInstructionsM === undefined ? '—' : fixed(baseline.importInstructionsM),
        baseline.importInstructionsM === undefined ? '—' : instructionRatioText(1),
        '',
        fixed(baseline.cpuMedianMs),
        ratio(1),
        fixed(baseline.systemMedianMs),
        String(baseline.pageFaultsMedian),
        ratio(1),
        String(baseline.gcCountMedian),
        fixed(baseline.gcMsMedian),
        fixed(baseline.gcMsMedian),
        fixed(baseline.firstCpuMedianMs),
        ratio(1),
        '',
        ratio(1 / section.oneFileBaseline.initRatio),
        section.oneFileBaseline.instructionRatio === undefined ? '—' : instructionRatioText(1 / section.oneFileBaseline.instructionRatio),
        'DynamoDBDocumentClient only',
      ],
      ...results.map((r) => [
        r.name,
        fixed(r.sizeKb),
        ratio(r.sizeRatio),
        r.held ? passFail(r.sizePass) : '(report)',
        fixed(r.loadedKb),
        ratio(r.loadedRatio),
        fixed(r.initMedianMs),
        fixed(r.pairedBaselineMedianMs),
        ratio(r.initRatio),
        intervalText(r.initRatioInterval),
        r.held ? passFail(r.initPass) : '(report)',
        r.importInstructionsM === undefined ? '—' : fixed(r.importInstructionsM),
        instructionRatioText(r.instructionRatio),
        r.instructionPass === undefined ? '—' : r.held ? passFail(r.instructionPass) : '(report)',
        fixed(r.cpuMedianMs),
        ratio(r.cpuRatio),
        fixed(r.systemMedianMs),
        String(r.pageFaultsMedian),
        ratio(r.pageFaultRatio),
        String(r.gcCountMedian),
        fixed(r.gcMsMedian),
        fixed(r.pairedBaselineGcMsMedian),
        fixed(r.firstCpuMedianMs),
        ratio(r.firstCpuRatio),
        r.firstStatus === undefined ? '—' : String(r.firstStatus),
        ratio(r.initRatioToOneFile),
        instructionRatioText(r.instructionRatioToOneFile),
        r.serves,
      ]),
    ],
    [
      'Targets hold for every function serving /v1 or /oauth (and the fallback); dashboard pages and /docs are measured and reported, not held.',
      `${runs} runs per function, each paired with a baseline run right before or after it (order alternating), both begun at the same point of the young generation's first ${youngCycleKb} KB cycle, the rounds' points spread evenly over it (as in Lambda, where the runtime allocates an unknown amount before the import); "Base ms" is the median of those paired baseline runs.`,
      `Init ×base: the median of the ${runs} pairs' own ratios (load that drifts between rounds cancels within a pair); "95% interval": a distribution-free interval for that median (order statistics, ${fixed((section.functions[0]?.initRatioInterval.confidence ?? 0) * 100, 1)}% coverage with ${runs} pairs).`,
      'CPU ms: CPU time (user + system) of the process during the same import; a verdict-free cross-check, far less sensitive to other load.',
      "Sys ms, Faults: the kernel's part of that CPU time and the page faults the import took (medians; Faults ×base against the paired baseline runs'): what the instruction count does not see (docs/performance.md, twelfth pass).",
      "GCs, GC ms: garbage collections that began during the import and their pauses summed (medians; Base GC ms: the paired baseline runs'). V8's young generation starts at 1 MB, so every import is collected once to three times at ~3 ms each, depending on where in the cycle it begins (docs/performance.md, thirteenth pass).",
      baseline.importInstructionsM === undefined
        ? 'Instr: not counted (valgrind is not installed here).'
        : "Instr: millions of instructions of the import, counted once by valgrind's callgrind (a fresh node process with --hash-seed=1, minus one importing an empty module): the same count on a busy machine, the deterministic cross-check of the timed ratio.",
      "1st req: CPU time of the import plus one first request in the same process (no credential, no cookie: answered without the table), beside the baseline's; work deferred from import to the first request shows here.",
      `esbuild as the CDK stack bundles (ESM, node22, minified, AWS SDK bundled, code split, the four built-ins with costly ES module facades through process.getBuiltinModule, createRequire banner). Size: every file of the bundle, what is deployed (held to ${targets.sizeRatio}×); Loaded: index.mjs and the chunks it imports statically, what a cold start reads (reported).`,
      `×1-file: against the same DynamoDB-only baseline bundled as one file with built-ins imported as modules (as this bench and the stack built every function before the eleventh pass, docs/performance.md): init as the paired medians' quotient, instructions as counted.`,
      `Measured with node ${probeNode().version}${probeNode().lambda ? ", Lambda's nodejs22.x line (npm run bench:node)" : " (this machine's; `npm run bench:node` fetches Lambda's line)"}.`,
      ...noiseWarning(section),
    ],
  );
};

const noiseWarning = ({ baselineSpread, loadAverageDuringInit }: Omit<BundleSection, 'checks' | 'largest'>): string[] =>
  baselineSpread > 0.25 || loadAverageDuringInit > cpus().length
    ? [
        `WARNING: noisy machine (load average ${fixed(loadAverageDuringInit, 2)} on ${cpus().length} CPUs, baseline imports spread ${fixed(baselineSpread * 100, 0)}% of their median):`,
        '         wall-clock ratios within ~0.1 of the target are not conclusive; compare the CPU-time column, or rerun on an idle machine.',
      ]
    : [];

const printLargest = (largest: BundleSection['largest']): void => {
  printTable(
    `The 10 largest inputs of the largest function bundle, ${largest.name} (${fixed(largest.sizeKb)} KB)`,
    [{ header: 'Input (esbuild metafile)' }, { header: 'KB in bundle' }],
    largest.topInputs.map((input) => [input.path, fixed(input.kb)]),
  );
  printTable(
    `Bytes of ${largest.name} per package`,
    [{ header: 'Package' }, { header: 'KB in bundle' }, { header: 'Also in baseline', align: 'left' }],
    largest.topPackages.map((p) => [p.name, fixed(p.kb), largest.beyondBaseline.some((b) => b.name === p.name) ? 'no' : 'yes']),
    [`Packages beyond the baseline: ${largest.beyondBaseline.map((p) => `${p.name} ${fixed(p.kb)} KB`).join(', ') || 'none'}.`],
  );
};

/** One line naming every held function that misses a target, and by how much. */
const printVerdict = (results: readonly FunctionResult[]): void => {
  const held = results.filter((r) => r.held);
  const misses = held.filter((r) => !r.sizePass || !r.initPass);
  const why = (r: FunctionResult): string =>
    [
      !r.sizePass ? `size ${ratio(r.sizeRatio)}` : '',
      !r.initPass ? `init ${ratio(r.initRatio)}, ${intervalText(r.initRatioInterval)} (CPU ${ratio(r.cpuRatio)})` : '',
    ]
      .filter(Boolean)
      .join(', ');
  console.log(
    misses.length === 0
      ? `\nVerdict: all ${held.length} /v1 and /oauth functions within ${targets.sizeRatio}× bundle and ${targets.initRatio}× init of the baseline.`
      : `\nVerdict: ${misses.length} of ${held.length} /v1 and /oauth functions miss (bundle ≤ ${targets.sizeRatio}×, init ≤ ${targets.initRatio}×): ${misses.map((r) => `${r.name} [${why(r)}]`).join('; ')}.`,
  );
  const decided = (decision: TimedDecision) => held.filter((r) => r.initDecided === decision);
  const undecided = decided('undecided');
  console.log(
    `Timed init at ${fixed((held[0]?.initRatioInterval.confidence ?? 0) * 100, 1)}% confidence: ${decided('within').length} within ${targets.initRatio}×, ${decided('over').length} over (${
      decided('over')
        .map((r) => r.name)
        .join(', ') || 'none'
    }), ${undecided.length} not decided by this run (their interval spans ${targets.initRatio}×: more rounds or a quieter machine decide them).`,
  );
  const counted = held.filter((r) => r.instructionRatio !== undefined);
  if (counted.length === 0) return;
  const over = counted.filter((r) => r.instructionPass !== true).sort((a, b) => (b.instructionRatio ?? 0) - (a.instructionRatio ?? 0));
  console.log(
    over.length === 0
      ? `Import instructions (callgrind): all ${counted.length} within ${targets.initRatio}× of the baseline's.`
      : `Import instructions (callgrind): ${counted.length - over.length} of ${counted.length} within ${targets.initRatio}×; over: ${over.map((r) => `${r.name} ${instructionRatioText(r.instructionRatio)}`).join(', ')}.`,
  );
};

/** What the stack's bundling saves: the baseline as one file beside it, and every held function against that one file. */
const printOneFile = ({ baseline, oneFileBaseline: oneFile, functions }: Omit<BundleSection, 'checks' | 'largest'>): void => {
  const held = functions.filter((r) => r.held);
  const span = (values: number[]) => (values.length === 0 ? '—' : `${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)}×`);
  const counted = held.flatMap((r) => (r.instructionRatioToOneFile === undefined ? [] : [r.instructionRatioToOneFile]));
  console.log(
    `One file: the same DynamoDB-only baseline bundled as one file, built-ins imported as modules (${fixed(oneFile.sizeKb)} KB, all of it read at import), imports in ${fixed(oneFile.initMedianMs)} ms = ${ratio(oneFile.initRatio)} the baseline as the stack bundles it (${fixed(baseline.loadedKb)} of ${fixed(baseline.sizeKb)} KB read at import)${
      oneFile.instructionRatio === undefined
        ? ''
        : `, ${fixed(oneFile.importInstructionsM ?? Number.NaN)} M instructions = ${instructionRatioText(oneFile.instructionRatio)}`
    }. Against it the ${held.length} held functions import in ${span(held.map((r) => r.initRatioToOneFile))} its time${counted.length === 0 ? '' : ` and ${span(counted)} its instructions`}.`,
  );
};

const largestOf = (bundles: readonly BuiltBundle[], baseline: BuiltBundle): BundleSection['largest'] => {
  const largest = bundles.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return {
    name: largest.name,
    sizeKb: kb(largest.bytes),
    topInputs: largestInputs(largest, 10).map((input) => ({ path: input.path, kb: kb(input.bytes) })),
    topPackages: packageShares(largest, 12).map((p) => ({ name: p.path, kb: kb(p.bytes) })),
    beyondBaseline: packagesBeyond(largest, baseline).map((p) => ({ name: p.path, kb: kb(p.bytes) })),
  };
};

export interface SourceMapCost {
  name: string;
  mapKb: number;
  /** Medians of the paired runs, ms, and the medians of the pairs' ratios to the baseline. */
  withoutMs: number;
  withMs: number;
  withoutRatio: number;
  withRatio: number;
}

/** The function the source-map row measures: a read every deployment has. */
const sourceMapProbe = 'projects/get';

/**
 * What `-c sourceMaps=true` costs a cold start: the same function built with its map and run with
 * `--enable-source-maps` (node reads and parses the whole map while importing), beside the bundle
 * as deployed by default, each paired with the baseline.
 */
const sourceMapCostOf = async (
  outDir: string,
  baseline: BuiltBundle,
  probe: BuiltBundle & { environment: Record<string, string> },
  runs: number,
): Promise<SourceMapCost> => {
  const mapped = await buildBundle(probe, join(outDir, 'with-source-maps'), sourceMapBuildOptions);
  // node reads the map of each file it loads: index.mjs's and its static chunks'.
  const mapBytes = mapped.loadedFiles.reduce((sum, path) => sum + (mapped.metafile.outputs[`${path}.map`]?.bytes ?? 0), 0);
  const [without, withMaps] = await measureColdInits(
    baseline.file,
    baseline.event,
    [
      { name: probe.name, file: probe.file, environment: probe.environment, event: probe.event },
      {
        name: `${probe.name} + maps`,
        file: mapped.file,
        environment: { ...probe.environment, NODE_OPTIONS: sourceMapNodeOptions },
        event: probe.event,
      },
    ],
    runs,
  );
  if (!without || !withMaps) throw new Error('the source-map probe measured nothing');
  return {
    name: probe.name,
    mapKb: kb(mapBytes),
    withoutMs: round(without.medianMs, 1),
    withMs: round(withMaps.medianMs, 1),
    withoutRatio: round(without.pairedRatio.median, 3),
    withRatio: round(withMaps.pairedRatio.median, 3),
  };
};

const printSourceMapCost = (cost: SourceMapCost): void =>
  console.log(
    `\nSource maps: ${cost.name} deployed with -c sourceMaps=true (the ${fixed(cost.mapKb)} KB of maps of the files it loads, read at import by --enable-source-maps) imports in ${fixed(cost.withMs)} ms = ${ratio(cost.withRatio)} the baseline, against ${fixed(cost.withoutMs)} ms = ${ratio(cost.withoutRatio)} as deployed by default (no map): why the maps are off (npm run stack-trace maps a logged stack instead).`,
  );

/** Every bundle's import counted by callgrind, or nothing where valgrind is not installed. */
const importInstructionsOf = async (
  outDir: string,
  baseline: BuiltBundle,
  probes: readonly (BuiltBundle & { environment: Record<string, string> })[],
): Promise<ImportInstructions | undefined> => {
  if (!(await canCountInstructions())) {
    console.log('Not counting import instructions: valgrind is not installed (apt-get install valgrind).');
    return undefined;
  }
  console.log(`Counting the instructions of each import with callgrind (${probes.length + 2} processes, ~8 s each)…`);
  return countImportInstructions(outDir, baseline.file, probes, (done, total) => {
    if (done % 10 === 0 || done === total) console.log(`  ${done}/${total}`);
  });
};

export const benchBundles = async (settings: BundleSettings): Promise<BundleSection> => {
  heading('1. Function bundles: size and cold init');
  const outDir = await mkdtemp(join(tmpdir(), 'pas-bench-bundles-'));
  const removeOutDir = deferCleanup(() => rm(outDir, { recursive: true, force: true }));
  try {
    const baseline = await buildBundle(baselineTarget, outDir);
    const oneFile = await buildBundle({ ...baselineTarget, name: 'baseline (one file)' }, outDir, oneFileBuildOptions);
    const wanted = settings.functions;
    const targets = functionTargets().filter(
      (target) => wanted === undefined || wanted.includes(target.name) || (wanted.includes('held') && target.held === true),
    );
    const unknown = wanted?.filter((name) => name !== 'held' && !targets.some((target) => target.name === name)) ?? [];
    if (unknown.length > 0) throw new Error(`--functions names no function of the route table: ${unknown.join(', ')}`);
    // One esbuild service builds them all at once, on every core (each build's output is the same as alone).
    const bundles: BuiltBundle[] = await Promise.all(targets.map((target) => buildBundle(target, outDir)));
    console.log(
      `Built ${bundles.length} function bundles and the baseline. Reading each function's environment from the synthesized stacks…`,
    );
    const environments = synthesizedEnvironments();
    const probes = bundles.map((bundle) => {
      const environment = bundle.functionDescription ? environments.get(bundle.functionDescription) : undefined;
      if (!environment) throw new Error(`no function of the stack is described "${bundle.functionDescription}" (${bundle.name})`);
      return { ...bundle, environment };
    });
    console.log(`Timing cold inits (${settings.initRuns} rounds)…`);

    const oneFileProbe = { ...oneFile, environment: {} };
    const timed = await measureColdInits(baseline.file, baseline.event, [...probes, oneFileProbe], settings.initRuns, (round) => {
      if (round % 5 === 0 || round === settings.initRuns) console.log(`  round ${round}/${settings.initRuns}`);
    });
    const loadAverageDuringInit = loadavg()[0] ?? 0;
    const inits = timed.slice(0, probes.length);
    const oneFileInit = timed[probes.length] as InitPair;
    const instructions = await importInstructionsOf(outDir, baseline, [...probes, oneFileProbe]);
    const oneFileInstructions = instructions?.byName.get(oneFile.name);
    const oneFileBaseline: OneFileBaseline = {
      sizeKb: kb(oneFile.bytes),
      initMedianMs: round(oneFileInit.medianMs, 1),
      initRatio: round(oneFileInit.pairedRatio.median, 3),
      ...(oneFileInstructions === undefined || instructions === undefined
        ? {}
        : {
            importInstructionsM: round(oneFileInstructions / 1e6, 2),
            instructionRatio: round(oneFileInstructions / instructions.baseline, 3),
          }),
    };
    const baselineWall = inits.flatMap((init) => init.baselineSamples.map((s) => s.initMs));
    const baselineCpu = inits.flatMap((init) => init.baselineSamples.map((s) => s.cpuMs));
    const baselineSystem = inits.flatMap((init) => init.baselineSamples.map((s) => s.systemMs));
    const baselineFaults = inits.flatMap((init) => init.baselineSamples.map((s) => s.pageFaults));
    const baselineGcCounts = inits.flatMap((init) => init.baselineSamples.map((s) => s.gcCount));
    const baselineGcMs = inits.flatMap((init) => init.baselineSamples.map((s) => s.gcMs));
    const baselineFirstCpu = inits.flatMap((init) =>
      init.baselineSamples.flatMap((s) => (s.firstCpuMs === undefined ? [] : [s.firstCpuMs])),
    );
    const section = {
      baseline: {
        sizeKb: kb(baseline.bytes),
        loadedKb: kb(baseline.loadedBytes),
        initMedianMs: round(median(baselineWall), 1),
        cpuMedianMs: round(median(baselineCpu), 1),
        systemMedianMs: round(median(baselineSystem), 1),
        pageFaultsMedian: round(median(baselineFaults), 0),
        gcCountMedian: median(baselineGcCounts),
        gcMsMedian: round(median(baselineGcMs), 1),
        firstCpuMedianMs: round(median(baselineFirstCpu), 1),
        ...(instructions ? { importInstructionsM: round(instructions.baseline / 1e6, 2) } : {}),
      },
      baselineSpread: round((percentile(baselineWall, 75) - percentile(baselineWall, 25)) / median(baselineWall), 3),
      loadAverageDuringInit: round(loadAverageDuringInit, 2),
      oneFileBaseline,
      functions: bundles.map((bundle, i) => resultOf(bundle, baseline, inits[i] as InitPair, oneFileBaseline, instructions)),
    };
    const largest = largestOf(bundles, baseline);
    const mapProbe = probes.find((probe) => probe.name === sourceMapProbe);
    const sourceMaps = mapProbe ? await sourceMapCostOf(outDir, baseline, mapProbe, settings.initRuns) : undefined;

    printResults(section, settings.initRuns);
    printLargest(largest);
    printVerdict(section.functions);
    printOneFile(section);
    if (sourceMaps) printSourceMapCost(sourceMaps);
    return { ...section, ...(sourceMaps ? { sourceMaps } : {}), largest, checks: checksOf(section.functions) };
  } finally {
    await removeOutDir();
  }
};
