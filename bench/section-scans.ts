import { join } from 'node:path';
import { osvDirectorySource } from '../functions/adapters/security/osv/osv-directory-source';
import { dependenciesScanner } from '../functions/engines/scanners/dependencies/dependencies-scanner';
import { defaultParallelism } from '../functions/engines/scanners/sast/lint-pool';
import { IN_PROCESS_BELOW, sastScanner } from '../functions/engines/scanners/sast/sast-scanner';
import type { RawFinding, ScanResult, Scanner } from '../functions/core/security/scanner';
import { secretsScanner } from '../functions/engines/scanners/secrets-scanner';
import { type Check, type Figure, fixed, heading, printTable } from './report';
import {
  type CliMessage,
  type CliRun,
  type GeneratedRepository,
  generateRepository,
  runEslintCli,
  runSecretlintCli,
  timed,
  writeEslintConfig,
} from './scan-runs';
import { median, round } from './stats';

/**
 * Section 6: the security scanners on a generated repository of 1,000 files, each called in
 * process (not through the API): time per scan, files per second, findings against what was
 * planted; and the secrets scanner beside the secretlint CLI run on the same tree.
 */

export interface ScanSettings {
  /** Files of the generated working tree. */
  files: number;
  /** Seed of the generator (the same tree every time). */
  seed: number;
  /** Unmeasured runs per scanner (and CLI) first. */
  warmup: number;
  /** Measured runs per scanner. */
  runs: number;
  /**
   * Runs of the CLIs (secretlint, its start-up and profiler-off rows, ESLint) and of the sast
   * diagnostic rows (in process, without prefilter). `--quick` runs each once without a warm-up:
   * the scanners' own warm-up has already read the tree into the disk cache.
   */
  others: { warmup: number; runs: number };
}

export interface Timing {
  runsMs: number[];
  warmupMs: number[];
  p50: number;
  min: number;
  max: number;
}

export interface PlantedCheck {
  planted: number;
  found: number;
  /** Findings that match nothing planted (`key ×n`). */
  unexpected: string[];
  /** Planted issues not found. */
  missed: string[];
}

export interface ScannerResult {
  scanner: Scanner['type'];
  time: Timing;
  filesScanned: number;
  filesPerSecond: number;
  findings: number;
  findingsByRule: Record<string, number>;
  planted: PlantedCheck;
  covered: string[];
  notCovered: ScanResult['coverage']['not_covered'];
  errors: string[];
}

export interface CliResult {
  time: Timing;
  /** The CLI on a tree of one small file: node start-up, loading secretlint and its configuration. */
  startupMs: Timing;
  /**
   * Diagnostic: the CLI on the whole tree with secretlint's performance profiler turned off (a
   * preloaded module replaces its `mark`, as secrets-scanner.ts does in process).
   */
  profilerOff: Timing;
  /** Messages of the profiler-off run (the same as with it on, or the diagnostic is not comparable). */
  profilerOffMessages: number;
  /** `--output` makes the CLI exit 0 even when it found secrets. */
  exitCode: number;
  filesLinted: number;
  binaryFiles: number;
  messages: number;
  messagesByRule: Record<string, number>;
  /** Files with at least one message. */
  filesWithSecrets: number;
  planted: PlantedCheck;
}

export interface SecretsComparison {
  /** Our secrets scan p50 / the CLI's p50. */
  ratio: number;
  /** The same, the CLI's start-up (tiny tree p50) taken off its time. */
  ratioWithoutStartup: number;
  /** Our p50 / the p50 of the CLI with its profiler off. */
  ratioProfilerOff: number;
  ours: number;
  cli: number;
  /** Same file, rule and line. */
  same: number;
  /** Same file and rule, another line. */
  otherLine: number;
  onlyOurs: string[];
  onlyCli: string[];
}

/** The sast scanner beside the ESLint CLI run with its configuration on the same tree. */
export interface SastComparison {
  cli: { time: Timing; files: number; messages: number; fatal: number; exitCode: number };
  /** The scanner linting in process only (`parallelism: 1`). */
  serial: { time: Timing; filesPerSecond: number; findings: number };
  /** The scanner linting every file (`prefilter: false`, the engine before issue 17's prefilter), same threads. */
  unfiltered: { time: Timing; filesPerSecond: number; findings: number };
  /** Findings of the scanner that differ from the unfiltered scanner's (whole findings compared), both ways. */
  differencesFromUnfiltered: number;
  threads: number;
  /** sast files/s ÷ the CLI's files/s (above 1: the scanner is faster). */
  speedVsCli: number;
  /** sast (worker threads) files/s ÷ sast in process files/s. */
  speedVsSerial: number;
  /** sast files/s ÷ the unfiltered scanner's files/s. */
  speedVsUnfiltered: number;
  onlyOurs: string[];
  onlyCli: string[];
}

export interface ScansSection {
  repository: {
    files: number;
    bytes: number;
    byKind: Record<string, number>;
    skippedFiles: number;
    packages: { npm: number; pypi: number };
    advisories: number;
  };
  scanners: ScannerResult[];
  cli: CliResult;
  comparison: SecretsComparison;
  sast: SastComparison;
  checks: Check[];
  figures: Figure[];
}

/** sast files/s measured before issue 17's work (600 files in 7.4 s), and the factor asked. */
export const SAST_FILES_PER_SECOND_BEFORE = 82;
export const SAST_SPEED_UP_TARGET = 3;

const sastChecks = (sast: ScannerResult, c: SastComparison): Check[] => [
  {
    section: 'scans',
    name: `sast files/s ≥ ${SAST_SPEED_UP_TARGET}× the ${SAST_FILES_PER_SECOND_BEFORE} files/s before`,
    pass: sast.filesPerSecond >= SAST_SPEED_UP_TARGET * SAST_FILES_PER_SECOND_BEFORE,
    detail: `${fixed(sast.filesPerSecond, 0)} files/s (${fixed(sast.filesPerSecond / SAST_FILES_PER_SECOND_BEFORE, 2)}×), ${fixed(c.serial.filesPerSecond, 0)} in process`,
  },
  {
    section: 'scans',
    name: 'sast no slower than the ESLint CLI with the same configuration',
    pass: c.speedVsCli >= 1,
    detail: `${ratio(c.speedVsCli)} the CLI's files/s`,
  },
  {
    section: 'scans',
    name: 'sast finds the same as the ESLint CLI (file, line, rule) and as the scanner linting every file (whole findings)',
    pass: c.onlyOurs.length === 0 && c.onlyCli.length === 0 && c.differencesFromUnfiltered === 0 && c.unfiltered.findings === sast.findings,
    detail: `${c.onlyOurs.length + c.onlyCli.length} differences from the CLI, ${c.differencesFromUnfiltered} from the unfiltered scanner`,
  },
];

const timing = (warmupMs: readonly number[], runsMs: readonly number[]): Timing => ({
  runsMs: runsMs.map((ms) => round(ms)),
  warmupMs: warmupMs.map((ms) => round(ms)),
  p50: round(median(runsMs)),
  min: round(Math.min(...runsMs)),
  max: round(Math.max(...runsMs)),
});

const countBy = (keys: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const key of [...keys].sort()) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

/** Multiset difference, as `key` or `key ×n`. */
const minus = (a: readonly string[], b: readonly string[]): string[] => {
  const left = countBy(a);
  for (const key of b) if (left[key] !== undefined) left[key] -= 1;
  return Object.entries(left)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => (n === 1 ? key : `${key} ×${n}`));
};

const plantedCheck = (planted: readonly string[], found: readonly string[]): PlantedCheck => {
  const missed = minus(planted, found);
  const missedCount = missed.reduce((n, m) => n + Number(/ ×(\d+)$/.exec(m)?.[1] ?? 1), 0);
  return { planted: planted.length, found: planted.length - missedCount, unexpected: minus(found, planted), missed };
};

const secretKind = (f: RawFinding): string => f.rule_id.replace(/^secretlint\//, '');

/** What each scanner should find in the generated tree, and the same key for each finding. */
const expectations = (repo: GeneratedRepository): Record<Scanner['type'], { planted: string[]; key: (f: RawFinding) => string }> => ({
  secrets: { planted: repo.planted.secrets.map((s) => `${s.path} ${s.kind}`), key: (f) => `${f.location.path} ${secretKind(f)}` },
  sast: { planted: repo.planted.sast.map((s) => `${s.path} ${s.rule}`), key: (f) => `${f.location.path} ${f.rule_id}` },
  dependencies: {
    planted: repo.planted.dependencies.map((d) => `${d.ecosystem}:${d.name}@${d.version}`),
    key: (f) => `${String(f.details.ecosystem)}:${String(f.details.package)}@${String(f.details.installed_version)}`,
  },
});

/** `1 warm-up + 2 runs`, `1 run`. */
const runsText = ({ warmup, runs }: { warmup: number; runs: number }): string =>
  `${warmup > 0 ? `${warmup} warm-up + ` : ''}${runs} run${runs === 1 ? '' : 's'}`;

/** True when the CLIs and diagnostic rows were timed once each (`--quick`), not as often as the scanners. */
const singleRuns = (settings: ScanSettings): boolean => settings.others.warmup === 0 && settings.others.runs === 1;

const runScanner = async (
  scanner: Scanner,
  repo: GeneratedRepository,
  settings: Pick<ScanSettings, 'warmup' | 'runs'>,
  label: string = scanner.type,
): Promise<{ result: ScannerResult; last: ScanResult }> => {
  process.stdout.write(`  ${label}: ${runsText(settings)}…`);
  const { warmupMs, runsMs, last } = await timed(() => scanner.scan(repo.root), settings.warmup, settings.runs);
  const time = timing(warmupMs, runsMs);
  const expected = expectations(repo)[scanner.type];
  const result: ScannerResult = {
    scanner: scanner.type,
    time,
    filesScanned: last.coverage.files_scanned,
    filesPerSecond: round(last.coverage.files_scanned / (time.p50 / 1000), 0),
    findings: last.findings.length,
    findingsByRule: countBy(last.findings.map((f) => f.rule_id)),
    planted: plantedCheck(expected.planted, last.findings.map(expected.key)),
    covered: last.coverage.covered,
    notCovered: last.coverage.not_covered,
    errors: last.errors,
  };
  console.log(` p50 ${fixed(time.p50, 0)} ms, ${result.filesScanned} files, ${result.findings} findings`);
  return { result, last };
};

const runSecretlintCliRuns = async (repo: GeneratedRepository, settings: ScanSettings): Promise<{ cli: CliResult; last: CliRun }> => {
  const { warmup, runs } = settings.others;
  process.stdout.write(`  secretlint CLI: ${runsText(settings.others)}…`);
  const output = join(repo.base, 'secretlint-output.json');
  const full = await timed(() => runSecretlintCli(repo.root, repo.secretlintrc, output), warmup, runs);
  const last = full.last;
  console.log(
    ` p50 ${fixed(median(full.runsMs), 0)} ms, ${last.files} files, ${last.messages.length} messages (exit code ${last.exitCode})`,
  );
  process.stdout.write(`  secretlint CLI on a one-file tree (start-up), then with its profiler off: ${runsText(settings.others)} each…`);
  const tiny = await timed(() => runSecretlintCli(repo.tinyRoot, repo.secretlintrc, output), warmup, runs);
  const off = await timed(() => runSecretlintCli(repo.root, repo.secretlintrc, output, repo.profilerOffPreload), warmup, runs);
  const cli: CliResult = {
    time: timing(full.warmupMs, full.runsMs),
    startupMs: timing(tiny.warmupMs, tiny.runsMs),
    profilerOff: timing(off.warmupMs, off.runsMs),
    profilerOffMessages: off.last.messages.length,
    exitCode: last.exitCode,
    filesLinted: last.files,
    binaryFiles: last.binaryFiles,
    messages: last.messages.length,
    messagesByRule: countBy(last.messages.map((m) => m.kind)),
    filesWithSecrets: new Set(last.messages.map((m) => m.path)).size,
    planted: plantedCheck(
      repo.planted.secrets.map((p) => `${p.path} ${p.kind}`),
      last.messages.map((m) => `${m.path} ${m.kind}`),
    ),
  };
  console.log(
    ` start-up p50 ${fixed(cli.startupMs.p50, 0)} ms; profiler off p50 ${fixed(cli.profilerOff.p50, 0)} ms, ${cli.profilerOffMessages} messages`,
  );
  return { cli, last };
};

const compareSecrets = (ours: readonly RawFinding[], cli: readonly CliMessage[], oursMs: number, cliTime: CliResult): SecretsComparison => {
  const withLine = (path: string, kind: string, line: number | null): string => `${path}:${line ?? '?'} ${kind}`;
  const oursKeys = ours.map((f) => withLine(f.location.path, secretKind(f), f.location.line));
  const cliKeys = cli.map((m) => withLine(m.path, m.kind, m.line));
  const oursOnly = minus(oursKeys, cliKeys);
  const cliOnly = minus(cliKeys, oursKeys);
  const count = (list: readonly string[]): number => list.reduce((n, m) => n + Number(/ ×(\d+)$/.exec(m)?.[1] ?? 1), 0);
  // Of those, the same secret kind in the same file on another line (a rule reporting a wrong range).
  const noLine = (list: readonly string[]): string[] =>
    list.flatMap((k) =>
      Array.from({ length: Number(/ ×(\d+)$/.exec(k)?.[1] ?? 1) }, () => k.replace(/ ×\d+$/, '').replace(/:[^: ]+ /, ' ')),
    );
  const otherLine = count(oursOnly) - count(minus(noLine(oursOnly), noLine(cliOnly)));
  const cliWork = cliTime.time.p50 - cliTime.startupMs.p50;
  return {
    ratio: round(oursMs / cliTime.time.p50, 3),
    ratioWithoutStartup: round(cliWork > 0 ? oursMs / cliWork : Number.NaN, 3),
    ratioProfilerOff: round(oursMs / cliTime.profilerOff.p50, 3),
    ours: ours.length,
    cli: cli.length,
    same: ours.length - count(oursOnly),
    otherLine,
    onlyOurs: oursOnly,
    onlyCli: cliOnly,
  };
};

/** `0.021×`: three decimals below 0.1, so that a small ratio keeps its digits. */
const ratio = (value: number): string => `${fixed(value, Math.abs(value) < 0.1 ? 3 : 2)}×`;

const plantedText = (p: PlantedCheck): string =>
  `${p.found}/${p.planted}${p.unexpected.length > 0 ? ` +${p.unexpected.length} other` : ''}`;

const kindsText = (byKind: Record<string, number>): string =>
  Object.entries(byKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');

const notCoveredText = (r: ScannerResult): string =>
  r.notCovered.length === 0 ? 'nothing' : r.notCovered.map((n) => `${n.kind} (${n.files})`).join(', ');

const printScanners = (
  repo: ScansSection['repository'],
  scanners: readonly ScannerResult[],
  cli: CliResult,
  settings: ScanSettings,
): void => {
  const row = (name: string, t: Timing, files: number, findings: number, planted: string): (string | number)[] => [
    name,
    t.runsMs.length,
    fixed(t.p50, 0),
    fixed(t.min, 0),
    fixed(t.max, 0),
    fixed(t.warmupMs[0] ?? Number.NaN, 0),
    files,
    fixed(files / (t.p50 / 1000), 0),
    findings,
    planted,
  ];
  printTable(
    `Scan time per scanner: generated repository of ${repo.files.toLocaleString('en')} files (${fixed(repo.bytes / (1024 * 1024), 1)} MiB), in process`,
    [
      { header: 'Scanner' },
      { header: 'Runs' },
      { header: 'p50 ms' },
      { header: 'min ms' },
      { header: 'max ms' },
      { header: 'Warm-up ms' },
      { header: 'Files scanned' },
      { header: 'Files/s' },
      { header: 'Findings' },
      { header: 'Planted found' },
    ],
    [
      ...scanners.map((s) => row(s.scanner, s.time, s.filesScanned, s.findings, plantedText(s.planted))),
      row('secretlint CLI', cli.time, cli.filesLinted, cli.messages, plantedText(cli.planted)),
      row('  profiler off', cli.profilerOff, cli.filesLinted, cli.profilerOffMessages, '—'),
    ],
    [
      `Tree: ${kindsText(repo.byKind)}; plus ${repo.skippedFiles} files under .git/ and node_modules/ (with secrets) that no tool should read.`,
      `Dependencies: ${repo.packages.npm} packages in package-lock.json, ${repo.packages.pypi} pins in requirements.txt, ${repo.advisories} OSV advisories in a local directory`,
      '(osvDirectorySource; its index is built by the warm-up run and reused after). Its files scanned are the lockfiles read.',
      `Each scanner's scan(root) called directly, ${settings.warmup} warm-up run(s) first (Warm-up ms: the first one), then ${settings.runs} measured;`,
      'the secretlint CLI is a new node process each run (same tree, same configuration). p50 = median of the runs; files/s = files scanned / p50.',
      singleRuns(settings)
        ? '--quick: the secretlint CLI rows (and its start-up) are single runs without a warm-up of their own (Runs 1, Warm-up ms —).'
        : `The secretlint CLI rows (and its start-up): ${runsText(settings.others)}.`,
      'profiler off: the same CLI with a preloaded module that turns secretlint’s performance profiler off (diagnostic, see below).',
      ...scanners.map(
        (s) =>
          `${s.scanner}: not covered: ${notCoveredText(s)}${s.errors.length > 0 ? `; ${s.errors.length} error(s), first: ${s.errors[0]}` : ''}.`,
      ),
      ...scanners.flatMap((s) => [
        ...(s.planted.missed.length > 0 ? [`${s.scanner}: planted but not found: ${s.planted.missed.join(', ')}`] : []),
        ...(s.planted.unexpected.length > 0 ? [`${s.scanner}: found, not planted: ${s.planted.unexpected.join(', ')}`] : []),
      ]),
    ],
  );
};

const printComparison = (secrets: ScannerResult, cli: CliResult, c: SecretsComparison): void => {
  printTable(
    'Secrets: this service’s scanner (in process) beside the secretlint CLI on the same tree',
    [
      { header: 'Measure', align: 'left' },
      { header: 'secrets scanner', align: 'right' },
      { header: 'secretlint CLI', align: 'right' },
    ],
    [
      ['p50 ms', fixed(secrets.time.p50, 0), fixed(cli.time.p50, 0)],
      ['min–max ms', `${fixed(secrets.time.min, 0)}–${fixed(secrets.time.max, 0)}`, `${fixed(cli.time.min, 0)}–${fixed(cli.time.max, 0)}`],
      ['start-up (CLI on a one-file tree), p50 ms', '—', fixed(cli.startupMs.p50, 0)],
      ['p50 ms, CLI with its profiler off', '', fixed(cli.profilerOff.p50, 0)],
      ['files linted', secrets.filesScanned, cli.filesLinted],
      ['  of which binary (no text rule runs)', 0, cli.binaryFiles],
      ['secrets reported', c.ours, c.cli],
      ['  same file, rule and line', c.same, c.same],
      ['ratio ours / CLI', ratio(c.ratio), ''],
      ['ratio ours / (CLI − start-up)', ratio(c.ratioWithoutStartup), ''],
      ['ratio ours / CLI with its profiler off', ratio(c.ratioProfilerOff), ''],
    ],
    [
      'Both run @secretlint/secretlint-rule-preset-recommend with the same options (AWS key ids on, account ids off), the CLI from a',
      '.secretlintrc.json outside the tree; both leave out .git/ and node_modules/. Our scanner skips files with a NUL byte in their',
      'first 8 KiB; the CLI reads every file and passes binary ones (by extension or content) to the rules as binary, where no',
      'text rule runs: same secrets, one more file counted per binary file. The CLI counts messages per file; our scanner keeps one',
      'finding per rule and place (duplicates of a message at the same span are dropped) and locates the secret itself (some rules',
      'report a wrong range), so its line can differ. The CLI lints os.cpus() files at once, our scanner 8.',
      'Most of the CLI’s time is secretlint’s performance profiler, on in the CLI even without --profile: @secretlint/core marks',
      'perf_hooks ~56 times per file and the profiler keeps every mark and searches them all at each new one (time quadratic in',
      'the file count). Our scanner replaces its mark by a no-op; the profiler-off row does the same to the CLI (node --import).',
      ...(c.otherLine > 0 ? [`${c.otherLine} secret(s) reported by both in the same file with the same rule but on another line.`] : []),
      ...(c.onlyOurs.length > 0 ? [`Only ours: ${c.onlyOurs.join(', ')}`] : []),
      ...(c.onlyCli.length > 0 ? [`Only the CLI: ${c.onlyCli.join(', ')}`] : []),
      ...(c.onlyOurs.length === 0 && c.onlyCli.length === 0 ? ['The two report the same secrets (file, rule and line).'] : []),
    ],
  );
};

const compareSast = async (
  repo: GeneratedRepository,
  sast: { result: ScannerResult; last: ScanResult },
  settings: ScanSettings,
): Promise<SastComparison> => {
  const serial = await runScanner(sastScanner({ parallelism: 1 }), repo, settings.others, 'sast in process');
  const unfiltered = await runScanner(sastScanner({ prefilter: false }), repo, settings.others, 'sast without prefilter');
  const whole = (findings: readonly RawFinding[]): string[] => findings.map((f) => JSON.stringify(f));
  process.stdout.write(`  ESLint CLI (sast configuration): ${runsText(settings.others)}…`);
  const config = await writeEslintConfig(repo.base);
  const output = join(repo.base, 'eslint-output.json');
  const run = await timed(() => runEslintCli(repo.root, config, output), settings.others.warmup, settings.others.runs);
  const time = timing(run.warmupMs, run.runsMs);
  console.log(` p50 ${fixed(time.p50, 0)} ms, ${run.last.files} files, ${run.last.messages.length} messages`);
  const ours = sast.last.findings.map((f) => `${f.location.path}:${f.location.line} ${f.rule_id}`);
  const cli = run.last.messages.map((m) => `${m.path}:${m.line} ${m.ruleId}`);
  const cliPerSecond = run.last.files / (time.p50 / 1000);
  return {
    cli: { time, files: run.last.files, messages: run.last.messages.length, fatal: run.last.fatal, exitCode: run.last.exitCode },
    serial: { time: serial.result.time, filesPerSecond: serial.result.filesPerSecond, findings: serial.result.findings },
    unfiltered: { time: unfiltered.result.time, filesPerSecond: unfiltered.result.filesPerSecond, findings: unfiltered.result.findings },
    differencesFromUnfiltered:
      minus(whole(sast.last.findings), whole(unfiltered.last.findings)).length +
      minus(whole(unfiltered.last.findings), whole(sast.last.findings)).length,
    threads: Math.min(defaultParallelism(), Math.ceil(sast.result.filesScanned / IN_PROCESS_BELOW)),
    speedVsCli: round(sast.result.filesPerSecond / cliPerSecond, 2),
    speedVsSerial: round(sast.result.filesPerSecond / serial.result.filesPerSecond, 2),
    speedVsUnfiltered: round(sast.result.filesPerSecond / unfiltered.result.filesPerSecond, 2),
    onlyOurs: minus(ours, cli),
    onlyCli: minus(cli, ours),
  };
};

const runsCell = (t: Timing): string => `${t.runsMs.length}${t.warmupMs.length > 0 ? ` (+${t.warmupMs.length})` : ''}`;

const printSast = (sast: ScannerResult, c: SastComparison, settings: ScanSettings): void => {
  printTable(
    'sast: this service’s scanner (worker threads, and in process) beside the ESLint CLI with the same configuration, same tree',
    [
      { header: 'Measure', align: 'left' },
      { header: `sast (${c.threads} threads)`, align: 'right' },
      { header: 'sast in process', align: 'right' },
      { header: 'sast, no prefilter', align: 'right' },
      { header: 'ESLint CLI', align: 'right' },
    ],
    [
      ['p50 ms', fixed(sast.time.p50, 0), fixed(c.serial.time.p50, 0), fixed(c.unfiltered.time.p50, 0), fixed(c.cli.time.p50, 0)],
      ['runs (+ warm-up)', runsCell(sast.time), runsCell(c.serial.time), runsCell(c.unfiltered.time), runsCell(c.cli.time)],
      ['files', sast.filesScanned, sast.filesScanned, sast.filesScanned, c.cli.files],
      [
        'files/s',
        fixed(sast.filesPerSecond, 0),
        fixed(c.serial.filesPerSecond, 0),
        fixed(c.unfiltered.filesPerSecond, 0),
        fixed(c.cli.files / (c.cli.time.p50 / 1000), 0),
      ],
      ['findings / messages', sast.findings, c.serial.findings, c.unfiltered.findings, c.cli.messages],
      ['speed ÷ ESLint CLI', ratio(c.speedVsCli), '', '', ''],
      ['speed ÷ in process', ratio(c.speedVsSerial), '', '', ''],
      ['speed ÷ no prefilter', ratio(c.speedVsUnfiltered), '', '', ''],
    ],
    [
      'The CLI is `node --import tsx eslint . --config <file> --no-inline-config --format json --output-file <file>`, a new process',
      'each run, its config file exporting the scanner’s own flat config (same rules, narrowed plugins, parsers; .js as ES modules);',
      'ESLint’s defaults otherwise (concurrency off, no cache). Its time includes node and tsx start-up and loading ESLint.',
      'The scanner’s worker pool is started by the warm-up run and kept (as in a warm Lambda); in process = `parallelism: 1`;',
      'no prefilter = `prefilter: false`: every file linted, as before the prefilter (same threads).',
      singleRuns(settings)
        ? `--quick: sast (${c.threads} threads) is the p50 of ${sast.time.runsMs.length} runs after a warm-up; in process, no prefilter and the ESLint CLI are single runs without a warm-up of their own.`
        : `sast (${c.threads} threads): ${runsText(settings)}; in process, no prefilter and the ESLint CLI: ${runsText(settings.others)} each.`,
      c.differencesFromUnfiltered === 0 && c.unfiltered.findings === sast.findings
        ? 'The scanner with and without its prefilter reports the same findings (every field).'
        : `With and without the prefilter: ${c.differencesFromUnfiltered} findings differ.`,
      `Target: at least 3× the 82 files/s measured before this change (issue 17), and no slower than the CLI.`,
      ...(c.onlyOurs.length === 0 && c.onlyCli.length === 0
        ? ['The scanner and the CLI report the same (file, line, rule).']
        : [
            ...(c.onlyOurs.length > 0 ? [`Only the scanner: ${c.onlyOurs.join(', ')}`] : []),
            ...(c.onlyCli.length > 0 ? [`Only the CLI: ${c.onlyCli.join(', ')}`] : []),
          ]),
    ],
  );
};

const figuresOf = (
  repo: ScansSection['repository'],
  scanners: readonly ScannerResult[],
  cli: CliResult,
  c: SecretsComparison,
  sastVsCli: SastComparison,
): Figure[] => {
  const figures: Figure[] = scanners.map((s) => ({
    section: 'scans',
    name: `${s.scanner} scan, generated repository of ${repo.files.toLocaleString('en')} files`,
    value:
      `p50 ${fixed(s.time.p50, 0)} ms (${fixed(s.time.min, 0)}–${fixed(s.time.max, 0)}), ${s.filesScanned} files scanned, ${fixed(s.filesPerSecond, 0)} files/s, ` +
      `${s.findings} findings (${s.planted.found}/${s.planted.planted} planted${s.planted.unexpected.length > 0 ? `, ${s.planted.unexpected.length} other` : ''})`,
  }));
  const oursMs = scanners.find((s) => s.scanner === 'secrets')?.time.p50 ?? Number.NaN;
  figures.push({
    section: 'scans',
    name: 'secrets scan vs the secretlint CLI, same tree',
    value:
      `${fixed(oursMs, 0)} ms vs ${fixed(cli.time.p50, 0)} ms (CLI start-up ${fixed(cli.startupMs.p50, 0)} ms): ` +
      `${ratio(c.ratio)}, the CLI taking ${fixed(cli.time.p50 / oursMs, 0)}× as long (${ratio(c.ratioWithoutStartup)} without start-up; ${ratio(c.ratioProfilerOff)} of the CLI with its profiler off, ${fixed(cli.profilerOff.p50, 0)} ms); ` +
      `secrets ${c.ours} vs ${c.cli}` +
      `${c.onlyOurs.length === 0 && c.onlyCli.length === 0 ? ' (the same)' : ` (${c.same} the same)`}`,
  });
  figures.push({
    section: 'scans',
    name: 'sast scan vs the ESLint CLI (same configuration), same tree',
    value:
      `${fixed(scanners.find((s) => s.scanner === 'sast')?.filesPerSecond ?? Number.NaN, 0)} files/s on ${sastVsCli.threads} threads ` +
      `(${fixed(sastVsCli.serial.filesPerSecond, 0)} in process) vs ${fixed(sastVsCli.cli.files / (sastVsCli.cli.time.p50 / 1000), 0)} files/s for the CLI: ` +
      `${ratio(sastVsCli.speedVsCli)} the CLI's speed, ${ratio(sastVsCli.speedVsSerial)} in-process, ` +
      `${ratio(sastVsCli.speedVsUnfiltered)} without prefilter (${fixed(sastVsCli.unfiltered.filesPerSecond, 0)} files/s); ` +
      `${sastVsCli.onlyOurs.length === 0 && sastVsCli.onlyCli.length === 0 ? 'the same findings' : `${sastVsCli.onlyOurs.length + sastVsCli.onlyCli.length} differences`}`,
  });
  return figures;
};

export const benchScans = async (settings: ScanSettings): Promise<ScansSection> => {
  heading('6. Security scans');
  const repo = await generateRepository({ files: settings.files, seed: settings.seed });
  try {
    const repository: ScansSection['repository'] = {
      files: repo.files,
      bytes: repo.bytes,
      byKind: repo.byKind,
      skippedFiles: repo.skippedFiles,
      packages: repo.packages,
      advisories: repo.advisories,
    };
    console.log(`Generated ${repo.files} files (${kindsText(repo.byKind)}) in ${repo.root}; ${repo.advisories} advisories.`);

    const secrets = await runScanner(secretsScanner(), repo, settings);
    const sast = await runScanner(sastScanner(), repo, settings);
    const dependencies = await runScanner(dependenciesScanner(osvDirectorySource(repo.advisoryDir)), repo, settings);
    const scanners = [secrets.result, sast.result, dependencies.result];

    const { cli, last } = await runSecretlintCliRuns(repo, settings);
    const comparison = compareSecrets(secrets.last.findings, last.messages, secrets.result.time.p50, cli);
    const sastVsCli = await compareSast(repo, sast, settings);

    printScanners(repository, scanners, cli, settings);
    printComparison(secrets.result, cli, comparison);
    printSast(sast.result, sastVsCli, settings);
    return {
      repository,
      scanners,
      cli,
      comparison,
      sast: sastVsCli,
      checks: sastChecks(sast.result, sastVsCli),
      figures: figuresOf(repository, scanners, cli, comparison, sastVsCli),
    };
  } finally {
    await repo.remove();
  }
};
