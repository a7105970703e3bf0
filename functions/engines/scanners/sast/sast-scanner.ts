/**
 * The `sast` scanner: static analysis of JavaScript and TypeScript with ESLint's security rules
 * (see rules.ts for the rule/severity table and what is left out).
 *
 * The scanned tree is untrusted, so nothing of it configures the analysis:
 * - `overrideConfigFile: true`: no `eslint.config.*` (nor any plugin it would import) is looked for
 *   or loaded; the whole configuration is the flat config below, with the plugins this service ships;
 * - `noInlineConfig` / `allowInlineConfig: false`: `eslint-disable` and `/* eslint … *\/` comments in
 *   the code neither hide findings nor change rules;
 * - TypeScript is parsed by typescript-eslint's parser without `project`/`projectService`, so no
 *   tsconfig of the repository is read and no type-aware rule runs;
 * - `globInputPaths: false`: every path is a literal file name, never a pattern.
 *
 * Files: every text file of the tree (`listTextFiles`: no `.git/`, no `node_modules/`, no symbolic
 * link, nothing over 1 MiB) with a JavaScript or TypeScript extension, minified bundles excepted
 * (`*.min.js`, or `looksMinified`: very long lines on average — generated code, whose findings
 * would point at no line a developer wrote). Each file is read and parsed once (file-linter.ts)
 * by an ESLint instance made once per thread; a tree of `IN_PROCESS_BELOW` files or more is spread
 * over worker threads, one per available core (lint-pool.ts), a smaller one is linted in process.
 * A file on whose text no rule can report (rule-triggers.ts: none of the names a rule looks for,
 * escapes decoded) is only parsed, to count it as ESLint would (parse-check.ts); the others are linted.
 * A `.js`/`.jsx` file is parsed as an ES module, and again as CommonJS if that fails (a script
 * using `with` or a top-level `return`). A file that cannot be parsed is no finding: it is listed
 * in `errors` ("could not parse: path: message") and under `not_covered`.
 *
 * Coverage: `covered` lists JavaScript and/or TypeScript when files of them were analysed;
 * `not_covered` lists every other programming language present (never reported clean), the JS/TS
 * files that were not analysed (minified, over 1 MiB, symbolic links, unparsable) and the
 * `node_modules` folders.
 *
 * Findings: `rule_id` is the ESLint rule id; `description` the ESLint message; `location` the
 * repo-relative path and 1-based line; `snippet` = "<rule id> <path>: <code>", the code being the
 * source line normalised by `normaliseCode` (literals as placeholders, no line number: moving code
 * keeps the fingerprint, a different call changes it; a long line is cut to a window around the
 * reported column first). A second identical occurrence in the same file gets " #2", and so on,
 * so that it has a fingerprint of its own. `excerpt` = the trimmed source line (token-like literals
 * masked, at most 200 characters); `details` = `{ column, language }`.
 */
import path from 'node:path';
import type { Coverage, RawFinding, ScanResult, Scanner } from '../../../core/security/scanner';
import { languageOf } from '../../../core/workspace/languages';
import { DEFAULT_MAX_FILE_BYTES, listTextFiles, type TextFile } from '../text-files';
import { type AnalysedLanguage, extensionOf, type FileMessage, type LintTask } from './file-linter';
import { defaultParallelism, lintInThread, lintInWorkers, startWorkers } from './lint-pool';
import { ruleInfo } from './rules';
import { excerptOf, lineWindow, normaliseCode } from './snippet';

export { looksMinified, MINIFIED_AVERAGE_LINE, sastConfig } from './file-linter';

/** Trees with fewer files to lint than this are linted in process (starting workers would cost more than it saves). */
export const IN_PROCESS_BELOW = 150;

const JS_EXTENSIONS = new Set(['js', 'jsx', 'mjs', 'cjs']);
const TS_EXTENSIONS = new Set(['ts', 'tsx', 'mts', 'cts']);
const MINIFIED_NAME = /\.min\.[cm]?js$/i;

/** Languages with no code to analyse for this scanner's kind of issues (style sheets). */
const NOT_PROGRAMMING = new Set(['CSS', 'SCSS', 'Sass', 'Less']);

const analysedLanguageOf = (file: string): 'JavaScript' | 'TypeScript' | null => {
  const extension = extensionOf(file);
  if (JS_EXTENSIONS.has(extension)) return 'JavaScript';
  if (TS_EXTENSIONS.has(extension)) return 'TypeScript';
  return null;
};

interface Analysed {
  file: TextFile;
  language: AnalysedLanguage;
  messages: FileMessage[];
  lines: Record<number, string>;
}

interface Unanalysed {
  file: TextFile;
  language: AnalysedLanguage;
  error: string;
}

export interface SastScannerOptions {
  /** Threads a scan may use (default: the cores available); 1 lints in process. */
  parallelism?: number;
  /** Fewer files to lint than this are linted in process (default `IN_PROCESS_BELOW`). */
  inProcessBelow?: number;
  /** Files no rule can report on by their text are parsed only (default true; see rule-triggers.ts). */
  prefilter?: boolean;
}

export function sastScanner(options: SastScannerOptions = {}): Scanner {
  const parallelism = Math.max(1, options.parallelism ?? defaultParallelism());
  const inProcessBelow = options.inProcessBelow ?? IN_PROCESS_BELOW;
  const linterOptions = { prefilter: options.prefilter !== false };
  return {
    type: 'sast',
    prepare() {
      // Before the checkout the tree's size is unknown: the threads a large tree would use.
      if (parallelism > 1) startWorkers(parallelism);
    },
    async scan(root: string): Promise<ScanResult> {
      const absoluteRoot = path.resolve(root);
      // Listed whole before any linting. Handing files to the workers as the listing found them
      // (largest first among those listed) was no faster: six interleaved scans of the bench tree on
      // warm workers at load 7–8, 35.1 s vs 35.6 s in all, faster in 3 of 6 (docs/performance.md, sast, third pass).
      const listing = await listTextFiles(absoluteRoot);

      const candidates: Array<{ file: TextFile; language: 'JavaScript' | 'TypeScript' }> = [];
      const notCovered = new NotCovered();
      const minified = (language: string): void =>
        notCovered.add(`${language} (minified)`, 'minified bundles are generated code: not analysed');
      for (const file of listing.files) {
        const language = analysedLanguageOf(file.path);
        if (language && MINIFIED_NAME.test(file.path)) {
          minified(language);
        } else if (language) {
          candidates.push({ file, language });
        } else {
          const other = languageOf(file.path);
          if (other && !NOT_PROGRAMMING.has(other)) notCovered.add(other, `no SAST scanner for ${other} in this service`);
        }
      }
      for (const skipped of listing.skipped) {
        const language = analysedLanguageOf(skipped.path);
        const other = language ? null : languageOf(skipped.path);
        if (other && !NOT_PROGRAMMING.has(other)) {
          notCovered.add(other, `no SAST scanner for ${other} in this service`);
        } else if (language && skipped.reason === 'too_large') {
          notCovered.add(`${language} (over ${DEFAULT_MAX_FILE_BYTES / (1024 * 1024)} MiB)`, 'files larger than 1 MiB are not analysed');
        } else if (language && skipped.reason === 'symlink') {
          notCovered.add(`${language} (symbolic links)`, 'symbolic links are not followed');
        } else if (language && skipped.reason === 'binary') {
          notCovered.add(`${language} (binary content)`, 'files with NUL bytes are not analysed');
        }
      }
      for (const dir of listing.excludedDirs) {
        notCovered.add('node_modules', 'installed third-party packages are not analysed (the dependencies scan covers them)', dir.files);
      }
      if (listing.overLimit > 0) {
        notCovered.add('files over the file limit', 'the tree has more files than a scan examines', listing.overLimit);
      }

      const tasks: LintTask[] = candidates.map(({ file, language }) => ({
        absolutePath: file.absolutePath,
        path: file.path,
        language,
        size: file.size,
      }));
      const outcomes =
        parallelism > 1 && tasks.length >= inProcessBelow
          ? await lintInWorkers(absoluteRoot, tasks, Math.min(parallelism, Math.ceil(tasks.length / inProcessBelow)), linterOptions)
          : await lintInThread(absoluteRoot, tasks, linterOptions);
      const analysed: Analysed[] = [];
      const unanalysed: Unanalysed[] = [];
      candidates.forEach((entry, i) => {
        const outcome = outcomes[i]!;
        if (outcome.kind === 'minified') minified(entry.language);
        else if (outcome.kind === 'unanalysed') unanalysed.push({ ...entry, error: outcome.error });
        else analysed.push({ ...entry, messages: outcome.messages, lines: outcome.lines });
      });
      analysed.sort((a, b) => compare(a.file.path, b.file.path));
      unanalysed.sort((a, b) => compare(a.file.path, b.file.path));

      const errors: string[] = [];
      for (const u of unanalysed) {
        errors.push(u.error);
        notCovered.add(`${u.language} (could not be parsed)`, 'files that could not be parsed are not analysed');
      }

      const findings = toFindings(analysed);
      const covered = (['JavaScript', 'TypeScript'] as const).filter((language) => analysed.some((a) => a.language === language));
      const coverage: Coverage = { files_scanned: analysed.length, covered, not_covered: notCovered.list() };
      return { findings, coverage, errors };
    },
  };
}

class NotCovered {
  private readonly entries = new Map<string, { kind: string; files: number; reason: string }>();

  add(kind: string, reason: string, files = 1): void {
    const entry = this.entries.get(kind);
    if (entry) entry.files += files;
    else this.entries.set(kind, { kind, files, reason });
  }

  /** Most files first, then by kind. */
  list(): Coverage['not_covered'] {
    return [...this.entries.values()].sort((a, b) => b.files - a.files || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }
}

function toFindings(analysed: readonly Analysed[]): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const { file, language, messages, lines } of analysed) {
    const relevant = messages
      .filter((m): m is FileMessage & { ruleId: string } => typeof m.ruleId === 'string' && !m.fatal)
      .sort((a, b) => a.line - b.line || a.column - b.column || compare(a.ruleId, b.ruleId));
    const occurrences = new Map<string, number>();
    for (const message of relevant) {
      const info = ruleInfo(message.ruleId, message.message);
      if (!info) continue;
      const source = lines[message.line] ?? '';
      const base = `${message.ruleId} ${file.path}: ${normaliseCode(lineWindow(source, message.column).text)}`;
      const seen = (occurrences.get(base) ?? 0) + 1;
      occurrences.set(base, seen);
      findings.push({
        type: 'sast',
        rule_id: message.ruleId,
        severity: info.severity,
        title: info.title,
        description: message.message,
        location: { path: file.path, line: message.line },
        snippet: seen === 1 ? base : `${base} #${seen}`,
        excerpt: excerptOf(source, message.column),
        details: { column: message.column, language },
      });
    }
  }
  return findings;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
