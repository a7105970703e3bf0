/**
 * The SAST rule selection: which ESLint rules run, how severe each finding is and how it is titled.
 *
 * | rule                                           | severity | reports                                                   |
 * |------------------------------------------------|----------|-----------------------------------------------------------|
 * | no-eval                                        | high     | eval() calls, direct, indirect or via window/globalThis   |
 * | no-implied-eval                                | high     | a string given to setTimeout / setInterval / execScript   |
 * | no-new-func                                    | high     | `new Function(body)` / `Function(body)`                   |
 * | no-unsanitized/property                        | high     | non-constant HTML assigned to innerHTML / outerHTML (DOM XSS) |
 * | no-unsanitized/method                          | high     | non-constant HTML given to insertAdjacentHTML, document.write(ln), createContextualFragment, setHTMLUnsafe |
 * |   … the same rule on `import(x)`               | medium   | a module imported from request input (narrowed, below)    |
 * | security/detect-disable-mustache-escape        | high     | template escaping turned off (`escapeMarkup = false`)     |
 * | security/detect-bidi-characters                | high     | Trojan Source: bidi control characters in code/comments   |
 * | security/detect-child-process                  | medium   | child_process.exec() with a non-constant command (a shell) |
 * | security/detect-non-literal-fs-filename        | medium   | an fs call on a path from request input (narrowed, below) |
 * | security/detect-non-literal-require            | medium   | require() of a path from request input (narrowed, below)  |
 * | security/detect-unsafe-regex                   | medium   | ReDoS: ambiguous nested repetition (narrowed, below)      |
 * | security/detect-pseudoRandomBytes              | medium   | crypto.pseudoRandomBytes (not cryptographically strong)   |
 * | security/detect-buffer-noassert                | medium   | Buffer read/write with bounds checks disabled             |
 * | security/detect-invisible-characters           | medium   | invisible (Hangul filler) characters hiding code          |
 * | security/detect-non-literal-regexp             | low      | `new RegExp(x)` on request input (narrowed, below)        |
 * | security/detect-new-buffer                     | low      | deprecated `new Buffer(x)` with a non-constant argument   |
 * | security/detect-possible-timing-attacks        | low      | a secret compared with request input by `===` (narrowed, below) |
 * | security/detect-no-csrf-before-method-override | low      | express csrf middleware registered before methodOverride  |
 *
 * Left out on purpose (a false alarm on clean code is a defect):
 * - `security/detect-object-injection`: reports every `obj[variable]`, array indexing in a loop
 *   included; on ordinary code nearly all of its reports are false alarms.
 * - `security/detect-eval-with-expression`: every call it reports (`eval(nonLiteral)`) is also
 *   reported by `no-eval` at the same place, so it would only duplicate findings.
 * - Every other rule (style, correctness, the typescript-eslint rules): not security findings.
 *
 * Narrowed (same rule ids, fewer reports), because as shipped they report ordinary code:
 * - `detect-non-literal-fs-filename`, `detect-non-literal-regexp`, `detect-non-literal-require` and
 *   `no-unsanitized/method` on `import(x)` report any non-constant argument — every
 *   `readFile(file)` of a helper. Here they are kept only when the argument visibly derives from
 *   request input (request-input.ts: `req.query.path`, `event.body`, a variable initialised from
 *   one…) and has not gone through an escaping/sanitising/confining function.
 * - `detect-possible-timing-attacks` reports `if (x === y)` whenever `x` or `y` is named `token`,
 *   `hash`, `pass`, `auth`, `api`… — a lexer's token, a hash map. Kept only when the other side
 *   derives from request input (`if (apiKey === req.headers['x-api-key'])`), where a timing
 *   attack is possible.
 * - `detect-unsafe-regex` (safe-regex's star height) reports every nested repetition, e.g. the UUID
 *   pattern `/^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/`; a report is kept only when the nesting
 *   is also ambiguous (regex-ambiguity.ts), as in `/(a+)+$/`.
 * - `no-unsanitized/*` reports of the plugin's own internal errors ("Error in no-unsanitized: …")
 *   are dropped: they are not findings.
 *
 * Made cheaper (the same reports, less work per file): `detect-bidi-characters` and
 * `detect-invisible-characters` run only on a file whose text holds a character they look for;
 * `detect-unsafe-regex` looks at regular-expression literals only (as shipped it asks for the
 * tokens of every string literal to find out).
 */
import type { ESLint, Rule, SourceCode } from 'eslint';
import noUnsanitizedPlugin from 'eslint-plugin-no-unsanitized';
import securityPlugin from 'eslint-plugin-security';
import type { Severity } from '../../../core/security/scanner';
import { hasAmbiguousNestedRepetition } from './regex-ambiguity';
import { derivesFromRequestInput } from './request-input';

export interface RuleInfo {
  severity: Severity;
  /** A readable sentence for the finding's title. */
  title: string;
}

export const ruleTable: Readonly<Record<string, RuleInfo>> = {
  'no-eval': { severity: 'high', title: 'Code is evaluated with eval()' },
  'no-implied-eval': { severity: 'high', title: 'A string is evaluated as code by a timer or execScript' },
  'no-new-func': { severity: 'high', title: 'Code is built with the Function constructor' },
  'no-unsanitized/property': { severity: 'high', title: 'Unsanitized HTML is assigned to the DOM (possible XSS)' },
  'no-unsanitized/method': { severity: 'high', title: 'Unsanitized HTML is passed to a DOM method (possible XSS)' },
  'security/detect-disable-mustache-escape': { severity: 'high', title: 'HTML escaping of templates is disabled (possible XSS)' },
  'security/detect-bidi-characters': { severity: 'high', title: 'Bidirectional control characters can hide code (Trojan Source)' },
  'security/detect-child-process': { severity: 'medium', title: 'A shell command is run through child_process with a non-constant value' },
  'security/detect-non-literal-fs-filename': {
    severity: 'medium',
    title: 'A file system path comes from request input (possible path traversal)',
  },
  'security/detect-non-literal-require': { severity: 'medium', title: 'A module is required from a path that comes from request input' },
  'security/detect-unsafe-regex': { severity: 'medium', title: 'A regular expression can backtrack catastrophically (ReDoS)' },
  'security/detect-pseudoRandomBytes': {
    severity: 'medium',
    title: 'Random bytes are not cryptographically strong (crypto.pseudoRandomBytes)',
  },
  'security/detect-buffer-noassert': { severity: 'medium', title: 'A Buffer is accessed with bounds checking disabled' },
  'security/detect-invisible-characters': { severity: 'medium', title: 'Invisible characters can hide code from reviewers' },
  'security/detect-non-literal-regexp': { severity: 'low', title: 'A regular expression is built from request input (possible ReDoS)' },
  'security/detect-new-buffer': { severity: 'low', title: 'The deprecated Buffer constructor is called with a non-constant value' },
  'security/detect-possible-timing-attacks': {
    severity: 'low',
    title: 'A secret is compared with request input in non-constant time (possible timing attack)',
  },
  'security/detect-no-csrf-before-method-override': { severity: 'low', title: 'CSRF protection is registered before methodOverride' },
};

/** Rules of the plugins deliberately not run (see the module comment). */
export const excludedRules: Readonly<Record<string, string>> = {
  'security/detect-object-injection': 'reports every obj[variable] (array indexing included): mostly false alarms on ordinary code',
  'security/detect-eval-with-expression': 'duplicates no-eval, which reports the same calls at the same place',
};

const IMPORT_MESSAGE = /^Unsafe call to import\b/;

/** Severity and title of one message; `import(x)` reported by no-unsanitized/method is a medium. */
export function ruleInfo(ruleId: string, message: string): RuleInfo | undefined {
  if (ruleId === 'no-unsanitized/method' && IMPORT_MESSAGE.test(message)) {
    return { severity: 'medium', title: 'A module is imported from a specifier that comes from request input' };
  }
  return ruleTable[ruleId];
}

interface EstreeNode {
  type: string;
  [key: string]: unknown;
}

/** A report as the rule made it: `report(descriptor)` or the positional `report(node, message)`. */
interface Report {
  node: EstreeNode | null;
  message: string;
}

type Keep = (report: Report, sourceCode: SourceCode) => boolean;

const reportOf = (args: unknown[]): Report => {
  const [first, second] = args as [Record<string, unknown> | undefined, unknown];
  if (first && typeof first.type === 'string' && typeof second === 'string') return { node: first as EstreeNode, message: second };
  const node = first?.node as EstreeNode | undefined;
  return { node: node ?? null, message: typeof first?.message === 'string' ? first.message : '' };
};

/** The rule, with only the reports `keep` accepts. */
const withReportFilter = (rule: Rule.RuleModule, keep: Keep): Rule.RuleModule => ({
  ...rule,
  create(context) {
    const filtered = Object.create(context, {
      report: {
        value: (...args: unknown[]) => {
          if (keep(reportOf(args), context.sourceCode)) (context.report as (...a: unknown[]) => void)(...args);
        },
      },
    }) as Rule.RuleContext;
    return rule.create(filtered);
  },
});

const argumentsOf = (node: EstreeNode | null): unknown[] => (node && Array.isArray(node.arguments) ? node.arguments : []);

/** detect-non-literal-fs-filename: the arguments it named ("… argument at index 0,1"), from request input. */
const fsPathFromRequest: Keep = ({ node, message }, sourceCode) => {
  const indices = /at index ([\d,]+)/.exec(message)?.[1]?.split(',').map(Number) ?? [];
  const args = argumentsOf(node);
  const named = indices.length > 0 ? indices.map((i) => args[i]) : args;
  return named.some((arg) => derivesFromRequestInput(arg, sourceCode));
};

/** `new RegExp(x)`, `require(x)`: the first argument from request input. */
const firstArgumentFromRequest: Keep = ({ node }, sourceCode) => derivesFromRequestInput(argumentsOf(node)[0], sourceCode);

/** no-unsanitized/method: `import(x)` only when `x` comes from request input; no internal-error reports. */
const unsanitizedMethodOfInterest: Keep = (report, sourceCode) => {
  if (report.message.startsWith('Error in no-unsanitized')) return false;
  if (!IMPORT_MESSAGE.test(report.message)) return true;
  const source = report.node?.source ?? argumentsOf(report.node)[0];
  return derivesFromRequestInput(source, sourceCode);
};

const noInternalError: Keep = (report) => !report.message.startsWith('Error in no-unsanitized');

/** detect-possible-timing-attacks: kept when the secret is compared with request input. */
const timingComparisonOfInterest: Keep = ({ node }, sourceCode) => {
  const test = node?.test as EstreeNode | undefined;
  if (!test || test.type !== 'BinaryExpression') return false;
  return derivesFromRequestInput(test.left, sourceCode) || derivesFromRequestInput(test.right, sourceCode);
};

/** detect-unsafe-regex: kept when the pattern has an ambiguous nested repetition (or cannot be read). */
const ambiguousRegex: Keep = ({ node }) => {
  if (!node) return true;
  let pattern: string | undefined;
  let flags = '';
  const regex = node.regex as { pattern: string; flags: string } | undefined;
  if (node.type === 'Literal' && regex) {
    pattern = regex.pattern;
    flags = regex.flags;
  } else if (node.type === 'NewExpression') {
    const [source, flagArg] = argumentsOf(node) as Array<EstreeNode | undefined>;
    if (source?.type === 'Literal' && typeof source.value === 'string') pattern = source.value;
    if (flagArg?.type === 'Literal' && typeof flagArg.value === 'string') flags = flagArg.value;
  }
  return pattern === undefined || hasAmbiguousNestedRepetition(pattern, flags);
};

/** The rule, created only for a file whose text matches `pattern` (without it, the rule cannot report). */
const onlyWhenTextMatches = (rule: Rule.RuleModule, pattern: RegExp): Rule.RuleModule => ({
  ...rule,
  create: (context) => (pattern.test(context.sourceCode.text) ? rule.create(context) : {}),
});

/** The rule's `Literal` listener called for regular-expression literals only (the rest it ignores). */
const regexLiteralsOnly = (rule: Rule.RuleModule): Rule.RuleModule => ({
  ...rule,
  create(context) {
    const listeners = rule.create(context);
    const literal = listeners.Literal;
    if (!literal) return listeners;
    return {
      ...listeners,
      Literal: (node) => {
        if ('regex' in node) literal(node);
      },
    };
  },
});

/** What detect-bidi-characters and detect-invisible-characters look for (their own character sets). */
export const BIDI_CHARACTER = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
export const INVISIBLE_CHARACTER = /[\u3164\uFFA0]/u;

const pluginRule = (plugin: ESLint.Plugin, name: string): Rule.RuleModule => {
  const rule = plugin.rules?.[name];
  if (!rule || typeof rule !== 'object' || !('create' in rule)) throw new Error(`ESLint rule ${name} not found in its plugin`);
  return rule as Rule.RuleModule;
};

const narrowed = (plugin: ESLint.Plugin, filters: Record<string, Keep>): Record<string, Rule.RuleModule> =>
  Object.fromEntries(Object.entries(filters).map(([name, keep]) => [name, withReportFilter(pluginRule(plugin, name), keep)]));

/** The `security` plugin as used here (see "Narrowed" above). */
export const security: ESLint.Plugin = {
  meta: { name: 'eslint-plugin-security (narrowed for the sast scanner)' },
  rules: {
    ...securityPlugin.rules,
    ...narrowed(securityPlugin, {
      'detect-non-literal-fs-filename': fsPathFromRequest,
      'detect-non-literal-regexp': firstArgumentFromRequest,
      'detect-non-literal-require': firstArgumentFromRequest,
      'detect-possible-timing-attacks': timingComparisonOfInterest,
    }),
    'detect-unsafe-regex': regexLiteralsOnly(withReportFilter(pluginRule(securityPlugin, 'detect-unsafe-regex'), ambiguousRegex)),
    'detect-bidi-characters': onlyWhenTextMatches(pluginRule(securityPlugin, 'detect-bidi-characters'), BIDI_CHARACTER),
    'detect-invisible-characters': onlyWhenTextMatches(pluginRule(securityPlugin, 'detect-invisible-characters'), INVISIBLE_CHARACTER),
  },
};

/** The `no-unsanitized` plugin as used here (see "Narrowed" above). */
export const noUnsanitized: ESLint.Plugin = {
  meta: { name: 'eslint-plugin-no-unsanitized (narrowed for the sast scanner)' },
  rules: narrowed(noUnsanitizedPlugin, { method: unsanitizedMethodOfInterest, property: noInternalError }),
};

/** Every rule of `ruleTable` on, nothing else. */
export const enabledRules = Object.fromEntries(Object.keys(ruleTable).map((id) => [id, 'error' as const]));
