/**
 * Lints one file of the scanned tree for the sast scanner, in whichever thread runs it (the
 * scanner's own, or a worker of lint-pool.ts): the file is read once, checked for minified code,
 * parsed once (a `.js`/`.jsx` file a second time, as CommonJS, only when it is not an ES module)
 * and linted by an ESLint instance made once per thread and tree, whose configuration is resolved
 * once. What comes back is plain data (it crosses a thread boundary): the messages, and the
 * source lines they point at (so that nothing reads the file again to make the findings).
 */
import { readFile } from 'node:fs/promises';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { parseCheck } from './parse-check';
import { mayReport } from './rule-triggers';
import { enabledRules, noUnsanitized, security } from './rules';

export type AnalysedLanguage = 'JavaScript' | 'TypeScript';

export interface LintTask {
  absolutePath: string;
  /** Repo-relative, '/'-separated (for messages). */
  path: string;
  language: AnalysedLanguage;
  /** Bytes (from the listing): the pool hands out the largest files first. */
  size: number;
}

/** The part of an ESLint message the scanner uses. */
export interface FileMessage {
  ruleId: string | null;
  message: string;
  line: number;
  column: number;
  fatal: boolean;
}

export type FileOutcome =
  | { kind: 'minified' }
  | { kind: 'analysed'; messages: FileMessage[]; lines: Record<number, string> }
  | { kind: 'unanalysed'; error: string };

/** `.js`/`.jsx`: module first, CommonJS when that does not parse. */
const AMBIGUOUS_EXTENSIONS = new Set(['js', 'jsx']);
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

export const extensionOf = (file: string): string => {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
};

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

/** ESLint's line breaks: it also breaks lines at a lone CR, U+2028 and U+2029, which git does not. */
const ESLINT_LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/**
 * ESLint's (line, column) as git numbers them, `\n` alone ending a line: what a finding, a review
 * comment on the diff and an editor show. The same numbers for the common file without lone CRs
 * or U+2028/U+2029.
 */
const gitPositions = (text: string): ((line: number, column: number) => { line: number; column: number }) => {
  if (!/[\r\u2028\u2029]/.test(text)) return (line, column) => ({ line, column });
  const eslintStarts = [0];
  for (const match of text.matchAll(ESLINT_LINE_BREAK)) eslintStarts.push(match.index + match[0].length);
  const gitStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) gitStarts.push(i + 1);
  return (line, column) => {
    const offset = (eslintStarts[line - 1] ?? 0) + column - 1;
    let low = 0;
    let high = gitStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((gitStarts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (gitStarts[low] as number) + 1 };
  };
};

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';

/** ESLint's notice for a file it did not lint (no matching configuration or ignored): not a clean file. */
const isIgnoredNotice = (m: FileMessage): boolean => m.ruleId === null && !m.fatal && /^File ignored\b/.test(m.message);

const parseFailure = (path: string, fatal: FileMessage): string =>
  `could not parse: ${path}: ${fatal.message.replace(/^Parsing error:\s*/, '')} (line ${fatal.line})`;

const plain = (m: Linter.LintMessage): FileMessage => ({
  ruleId: m.ruleId,
  message: m.message,
  line: m.line,
  column: m.column,
  fatal: m.fatal === true,
});

export type FileLinter = (task: LintTask) => Promise<FileOutcome>;

export interface FileLinterOptions {
  /**
   * A file no rule can report on by its text (rule-triggers.ts) is only parsed (parse-check.ts),
   * not linted: same findings, errors and coverage (default true; false lints every file).
   */
  prefilter?: boolean;
}

/** A linter for the files of the tree at `root` (absolute): one ESLint instance per source type, made on first use. */
export function fileLinter(root: string, options: FileLinterOptions = {}): FileLinter {
  const module = newEslint(root, 'module');
  let commonjs: ESLint | undefined;
  const nothingToReport = options.prefilter === false ? undefined : parseCheck(sastConfig('module'));

  const lintWith = async (eslint: ESLint, text: string, task: LintTask): Promise<FileMessage[] | { error: string }> => {
    try {
      const [result] = await eslint.lintText(text, { filePath: task.absolutePath, warnIgnored: true });
      return result ? result.messages.map(plain) : { error: 'no result from ESLint' };
    } catch (error) {
      // A rule crashing on odd code: only this file is lost.
      return { error: firstLine(error instanceof Error ? error.message : String(error)) };
    }
  };

  return async (task) => {
    let text: string;
    try {
      // Asynchronous on purpose: with readFileSync a worker never sleeps, and on a busy machine the
      // scheduler then gives it only its bare share: scans on worker threads took 1.6–1.8× as long
      // (docs/performance.md, sast, second pass), for ~0.2 s of CPU saved per 600 files.
      text = await readFile(task.absolutePath, 'utf8');
    } catch (error) {
      return { kind: 'unanalysed', error: `could not analyse: ${task.path}: ${firstLine((error as Error).message)}` };
    }
    if (looksMinified(text)) return { kind: 'minified' };
    if (nothingToReport && !mayReport(text) && nothingToReport(text, task.absolutePath, extensionOf(task.path))) {
      return { kind: 'analysed', messages: [], lines: {} };
    }

    let messages = await lintWith(module, text, task);
    if ('error' in messages) return { kind: 'unanalysed', error: `could not analyse: ${task.path}: ${messages.error}` };
    const ignored = messages.find(isIgnoredNotice);
    if (ignored) return { kind: 'unanalysed', error: `could not analyse: ${task.path}: ${ignored.message}` };
    const fatal = messages.find((m) => m.fatal);
    if (fatal) {
      if (!AMBIGUOUS_EXTENSIONS.has(extensionOf(task.path))) return { kind: 'unanalysed', error: parseFailure(task.path, fatal) };
      // Not an ES module: perhaps a CommonJS script. If not, reported with the module parse error,
      // the more common intent of a .js file.
      commonjs ??= newEslint(root, 'commonjs');
      const again = await lintWith(commonjs, text, task);
      if ('error' in again || again.some((m) => m.fatal)) return { kind: 'unanalysed', error: parseFailure(task.path, fatal) };
      messages = again;
    }

    const lines: Record<number, string> = {};
    const source = text.replace(/^\uFEFF/, '');
    const toGit = gitPositions(source);
    const placed = messages.map((m) => (m.line > 0 ? { ...m, ...toGit(m.line, Math.max(m.column, 1)) } : m));
    const reported = placed.filter((m) => typeof m.ruleId === 'string' && !m.fatal);
    if (reported.length > 0) {
      const all = source.split('\n');
      for (const m of reported) lines[m.line] = (all[m.line - 1] ?? '').replace(/\r$/, '');
    }
    return { kind: 'analysed', messages: placed, lines };
  };
}
