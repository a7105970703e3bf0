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
 * would point at no line a developer wrote). One ESLint instance lints them in batches of
 * `BATCH_SIZE` files per `lintFiles` call (1,000 ordinary files take a few seconds).
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
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { languageOf } from '../../../core/workspace/languages';
import type { Coverage, RawFinding, ScanResult, Scanner } from '../../../core/security/scanner';
import { DEFAULT_MAX_FILE_BYTES, listTextFiles, type TextFile } from '../text-files';
import { enabledRules, noUnsanitized, ruleInfo, security } from './rules';
import { excerptOf, lineWindow, normaliseCode } from './snippet';

/** Files per `lintFiles` call. */
export const BATCH_SIZE = 200;
/** Files read at once for the minified-bundle check. */
const READ_CONCURRENCY = 32;

const JS_EXTENSIONS = new Set(['js', 'jsx', 'mjs', 'cjs']);
const TS_EXTENSIONS = new Set(['ts', 'tsx', 'mts', 'cts']);
/** `.js`/`.jsx`: module first, CommonJS when that does not parse. */
const AMBIGUOUS_EXTENSIONS = new Set(['js', 'jsx']);
const MINIFIED_NAME = /\.min\.[cm]?js$/i;
/** Generated bundles not named `.min.js`: lines this long on average are not hand-written code. */
export const MINIFIED_AVERAGE_LINE = 250;
/** Files shorter than this are never taken for minified. */
const MINIFIED_MIN_BYTES = 2048;

/** True for a minified or bundled file: non-empty lines of `MINIFIED_AVERAGE_LINE` characters or more on average. */
export function looksMinified(text: string): boolean {
  if (text.length < MINIFIED_MIN_BYTES) return false;
  let lines = 0;
  for (let i = text.indexOf('\n'), start = 0; ; start = i + 1, i = text.indexOf('\n', start)) {
    if ((i === -1 ? text.length : i) > start) lines++;
    if (i === -1) break;
  }
  return text.length / Math.max(lines, 1) >= MINIFIED_AVERAGE_LINE;
}

/** Languages with no code to analyse for this scanner's kind of issues (style sheets). */
const NOT_PROGRAMMING = new Set(['CSS', 'SCSS', 'Sass', 'Less']);

/** Globals the rules need to recognise (`window.eval`, `setTimeout("…")`); ECMAScript built-ins are known already. */
const GLOBALS: Linter.Globals = Object.fromEntries(
  [
    'window',
    'self',
    'global',
    'document',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'execScript',
    'require',
    'module',
    'exports',
    'process',
    'Buffer',
    '__dirname',
    '__filename',
  ].map((name) => [name, 'readonly' as const]),
);

const extensionOf = (file: string): string => {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
};

const analysedLanguageOf = (file: string): 'JavaScript' | 'TypeScript' | null => {
  const extension = extensionOf(file);
  if (JS_EXTENSIONS.has(extension)) return 'JavaScript';
  if (TS_EXTENSIONS.has(extension)) return 'TypeScript';
  return null;
};

/** The flat config: the only configuration ever used (`jsSourceType` is for `.js`/`.jsx`). */
export function sastConfig(jsSourceType: 'module' | 'commonjs'): Linter.Config[] {
  return [
    {
      name: 'sast/linter-options',
      linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
    },
    {
      name: 'sast/javascript',
      files: ['**/*.js', '**/*.jsx'],
      languageOptions: {
        ecmaVersion: 'latest',
        sourceType: jsSourceType,
        globals: GLOBALS,
        parserOptions: { ecmaFeatures: { jsx: true } },
      },
    },
    {
      name: 'sast/javascript-module',
      files: ['**/*.mjs'],
      languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: GLOBALS, parserOptions: { ecmaFeatures: { jsx: true } } },
    },
    {
      name: 'sast/javascript-commonjs',
      files: ['**/*.cjs'],
      languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs', globals: GLOBALS, parserOptions: { ecmaFeatures: { jsx: true } } },
    },
    {
      name: 'sast/typescript',
      files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
      languageOptions: {
        parser: tseslint.parser as Linter.Parser,
        sourceType: 'module',
        globals: GLOBALS,
        // No project/projectService: nothing of the repository (tsconfig) is read, no type information.
        parserOptions: { jsDocParsingMode: 'none', warnOnUnsupportedTypeScriptVersion: false },
      },
    },
    {
      name: 'sast/rules',
      files: ['**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs', '**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
      plugins: { security, 'no-unsanitized': noUnsanitized },
      rules: enabledRules,
    },
  ];
}

const newEslint = (root: string, jsSourceType: 'module' | 'commonjs'): ESLint =>
  new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: sastConfig(jsSourceType),
    allowInlineConfig: false,
    globInputPaths: false,
    errorOnUnmatchedPattern: false,
    warnIgnored: true,
    ignore: false,
    cache: false,
    fix: false,
  });

interface Analysed {
  file: TextFile;
  language: 'JavaScript' | 'TypeScript';
  messages: Linter.LintMessage[];
}

interface Unanalysed {
  file: TextFile;
  language: 'JavaScript' | 'TypeScript';
  error: string;
}

export interface SastScannerOptions {
  /** Files per `lintFiles` call (default `BATCH_SIZE`). */
  batchSize?: number;
}

export function sastScanner(options: SastScannerOptions = {}): Scanner {
  const batchSize = Math.max(1, options.batchSize ?? BATCH_SIZE);
  return {
    type: 'sast',
    async scan(root: string): Promise<ScanResult> {
      const absoluteRoot = path.resolve(root);
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

      const toLint: typeof candidates = [];
      for (let start = 0; start < candidates.length; start += READ_CONCURRENCY) {
        const batch = candidates.slice(start, start + READ_CONCURRENCY);
        const bundled = await Promise.all(batch.map(({ file }) => readFile(file.absolutePath, 'utf8').then(looksMinified, () => false)));
        batch.forEach((entry, i) => (bundled[i] ? minified(entry.language) : toLint.push(entry)));
      }

      const { analysed, unanalysed } = await lint(absoluteRoot, toLint, batchSize);

      const errors: string[] = [];
      for (const u of unanalysed) {
        errors.push(u.error);
        notCovered.add(`${u.language} (could not be parsed)`, 'files that could not be parsed are not analysed');
      }

      const findings = await toFindings(analysed);
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

/** ESLint's notice for a file it did not lint (no matching configuration or ignored): not a clean file. */
const isIgnoredNotice = (m: Linter.LintMessage): boolean => m.ruleId === null && !m.fatal && /^File ignored\b/.test(m.message);

const parseError = (messages: readonly Linter.LintMessage[]): Linter.LintMessage | undefined => messages.find((m) => m.fatal);

async function lint(
  root: string,
  files: ReadonlyArray<{ file: TextFile; language: 'JavaScript' | 'TypeScript' }>,
  batchSize: number,
): Promise<{ analysed: Analysed[]; unanalysed: Unanalysed[] }> {
  const analysed: Analysed[] = [];
  const unanalysed: Unanalysed[] = [];
  if (files.length === 0) return { analysed, unanalysed };

  const primary = newEslint(root, 'module');
  let commonjs: ESLint | undefined;

  for (let start = 0; start < files.length; start += batchSize) {
    const batch = files.slice(start, start + batchSize);
    const results = await lintBatch(
      primary,
      batch.map((f) => f.file),
    );
    const retry: typeof batch = [];
    for (const entry of batch) {
      const outcome = results.get(entry.file.absolutePath) ?? { error: 'no result from ESLint' };
      if ('error' in outcome) {
        unanalysed.push({ ...entry, error: `could not analyse: ${entry.file.path}: ${outcome.error}` });
        continue;
      }
      const ignored = outcome.messages.find(isIgnoredNotice);
      if (ignored) {
        unanalysed.push({ ...entry, error: `could not analyse: ${entry.file.path}: ${ignored.message}` });
        continue;
      }
      const fatal = parseError(outcome.messages);
      if (!fatal) analysed.push({ ...entry, messages: outcome.messages });
      else if (AMBIGUOUS_EXTENSIONS.has(extensionOf(entry.file.path))) retry.push(entry);
      else unanalysed.push({ ...entry, error: parseFailure(entry.file, fatal) });
    }
    if (retry.length === 0) continue;

    // Not an ES module: perhaps a CommonJS script.
    commonjs ??= newEslint(root, 'commonjs');
    const again = await lintBatch(
      commonjs,
      retry.map((f) => f.file),
    );
    for (const entry of retry) {
      const outcome = again.get(entry.file.absolutePath);
      if (outcome && 'messages' in outcome && !parseError(outcome.messages)) {
        analysed.push({ ...entry, messages: outcome.messages });
      } else {
        // Reported with the module parse error, the more common intent of a .js file.
        const first = results.get(entry.file.absolutePath);
        const fatal = first && 'messages' in first ? parseError(first.messages) : undefined;
        unanalysed.push({ ...entry, error: fatal ? parseFailure(entry.file, fatal) : `could not parse: ${entry.file.path}` });
      }
    }
  }
  analysed.sort((a, b) => compare(a.file.path, b.file.path));
  unanalysed.sort((a, b) => compare(a.file.path, b.file.path));
  return { analysed, unanalysed };
}

const parseFailure = (file: TextFile, fatal: Linter.LintMessage): string =>
  `could not parse: ${file.path}: ${fatal.message.replace(/^Parsing error:\s*/, '')} (line ${fatal.line})`;

type Outcome = { messages: Linter.LintMessage[] } | { error: string };

/**
 * Lints the files in one call; if ESLint throws (a rule crashing on odd code), each file is linted
 * alone so that only the file at fault is lost.
 */
async function lintBatch(eslint: ESLint, files: readonly TextFile[]): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  try {
    const results = await eslint.lintFiles(files.map((f) => f.absolutePath));
    for (const result of results) outcomes.set(path.resolve(result.filePath), { messages: result.messages });
    return outcomes;
  } catch {
    for (const file of files) {
      try {
        const [result] = await eslint.lintFiles([file.absolutePath]);
        outcomes.set(file.absolutePath, result ? { messages: result.messages } : { error: 'no result from ESLint' });
      } catch (error) {
        outcomes.set(file.absolutePath, { error: firstLine(error instanceof Error ? error.message : String(error)) });
      }
    }
    return outcomes;
  }
}

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';

/** ESLint's line breaks, so that line numbers match its messages. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/;

async function toFindings(analysed: readonly Analysed[]): Promise<RawFinding[]> {
  const findings: RawFinding[] = [];
  for (const { file, language, messages } of analysed) {
    const relevant = messages
      .filter((m): m is Linter.LintMessage & { ruleId: string } => typeof m.ruleId === 'string' && !m.fatal)
      .sort((a, b) => a.line - b.line || a.column - b.column || compare(a.ruleId, b.ruleId));
    if (relevant.length === 0) continue;

    const lines = (await readFile(file.absolutePath, 'utf8')).replace(/^\uFEFF/, '').split(LINE_BREAK);
    const occurrences = new Map<string, number>();
    for (const message of relevant) {
      const info = ruleInfo(message.ruleId, message.message);
      if (!info) continue;
      const source = lines[message.line - 1] ?? '';
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
