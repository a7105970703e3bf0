/**
 * For a file no rule can report on by its text (rule-triggers.ts): whether ESLint would parse it
 * and find nothing, at the cost of the parse alone. The file is parsed by the parser ESLint uses for
 * it, with the options of the scanner's flat config, as ESLint does (byte order mark dropped, a
 * `#!` line turned into a comment), but without the tokens, comments, locations, scope analysis
 * and rule traversal a lint needs. Its regular-expression literals are then the only thing left
 * that a rule (detect-unsafe-regex) could report on.
 *
 * `false` sends the file to ESLint: it does not parse as configured (ESLint reports the error, or
 * parses a `.js` file again as CommonJS), or it holds a regular expression the rule could keep.
 */
import { parse as parseTypeScript } from '@typescript-eslint/typescript-estree';
import * as espree from 'espree';
import type { Linter } from 'eslint';
import { mayReportOnRegexLiteral } from './rule-triggers';

const SHEBANG = /^#!([^\r\n]+)/u;

interface Node {
  type?: unknown;
  regex?: { pattern: string; flags: string };
  [key: string]: unknown;
}

const SKIPPED_KEYS = new Set(['parent', 'loc', 'range', 'tokens', 'comments']);

/** Some regular-expression literal of the tree that detect-unsafe-regex could report on. */
const hasReportableRegex = (root: unknown): boolean => {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    const node = value as Node;
    if (node.type === 'Literal' && node.regex && mayReportOnRegexLiteral(node.regex.pattern, node.regex.flags)) return true;
    for (const key in node) {
      if (SKIPPED_KEYS.has(key)) continue;
      const child = node[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
};

/** The language options a flat config of `files: ['**\/*.<extension>']` entries gives each extension. */
const languageOptionsByExtension = (config: readonly Linter.Config[]): Map<string, Linter.LanguageOptions> => {
  const byExtension = new Map<string, Linter.LanguageOptions>();
  for (const entry of config) {
    if (!entry.languageOptions) continue;
    for (const glob of entry.files ?? []) {
      if (typeof glob === 'string' && glob.startsWith('**/*.')) byExtension.set(glob.slice('**/*.'.length), entry.languageOptions);
    }
  }
  return byExtension;
};

/** ESLint's `ecmaVersion: 'latest'` is espree's latest (a test holds them equal). */
const ecmaVersionOf = (options: Linter.LanguageOptions): Linter.ParserOptions['ecmaVersion'] =>
  options.ecmaVersion === 'latest' || options.ecmaVersion === undefined ? espree.latestEcmaVersion : options.ecmaVersion;

const parseAsConfigured = (text: string, absolutePath: string, options: Linter.LanguageOptions): unknown => {
  const parserOptions = (options.parserOptions ?? {}) as Record<string, unknown> & { ecmaFeatures?: { jsx?: boolean } };
  if (options.parser === undefined) {
    return espree.parse(text, { ...parserOptions, ecmaVersion: ecmaVersionOf(options), sourceType: options.sourceType });
  }
  // As @typescript-eslint/parser's parseForESLint calls typescript-estree (no project: no program).
  return parseTypeScript(text, {
    jsx: parserOptions.ecmaFeatures?.jsx === true,
    ...parserOptions,
    sourceType: options.sourceType === 'module' ? 'module' : 'script',
    filePath: absolutePath,
    errorOnTypeScriptSyntacticAndSemanticIssues: false,
    // With either off, typescript-estree walks the whole tree again to delete them.
    loc: true,
    range: true,
    tokens: false,
    comment: false,
  });
};

export type ParseCheck = (text: string, absolutePath: string, extension: string) => boolean;

/**
 * For the files of `config` (the scanner's flat config, `.js` as ES modules, as ESLint tries
 * first): true when ESLint would parse the file and, no rule being able to report by its text
 * (the caller checked), find nothing.
 */
export const parseCheck = (config: readonly Linter.Config[]): ParseCheck => {
  const byExtension = languageOptionsByExtension(config);
  return (text, absolutePath, extension) => {
    const options = byExtension.get(extension);
    if (!options) return false;
    const source = text.replace(/^\uFEFF/, '').replace(SHEBANG, (_match, rest: string) => `//${rest}`);
    let ast: unknown;
    try {
      ast = parseAsConfigured(source, absolutePath, options);
    } catch {
      return false;
    }
    return !hasReportableRegex(ast);
  };
};
