/**
 * Which files the sast rules could report on, decided from the text alone, before parsing: for
 * each rule of `ruleTable`, a test that holds whenever the rule (as narrowed in rules.ts) can
 * report on a file. It is a necessary condition, never a sufficient one: a file for which no test
 * holds cannot get a finding, so the scanner only checks that it parses (file-linter.ts) and
 * lets the rules run on the others.
 *
 * Every rule looks for names: an identifier (`eval`, `setTimeout`, `Buffer`), a property name
 * (`innerHTML`, `pseudoRandomBytes`), a module name in a string (`child_process`), or, for the
 * rules narrowed to request input (request-input.ts), one of the request names AND the rule's own
 * sink. A name can be spelt with escapes (`\u0065val`, `window['ev\x61l']`, `'ev\al'`, a line
 * continuation): the tests run on the text as written and, when it holds a backslash, on the text
 * with every escape sequence decoded. Words are matched whole (`\b`): an identifier char next to
 * the name would make it another name.
 *
 * `security/detect-unsafe-regex` is the exception: on a regular-expression literal it reports
 * what no name announces (in TypeScript, an invalid pattern too). Its `new RegExp('…')` form has
 * a name; its literals are checked on the parsed tree (`mayReportOnRegexLiteral`).
 */
import { hasAmbiguousNestedRepetition } from './regex-ambiguity';
import { BIDI_CHARACTER, INVISIBLE_CHARACTER, ruleTable } from './rules';
import { INPUT_GLOBALS, INPUT_PARTS, REQUEST_OBJECTS } from './request-input';

/** A file's text, as written and with its escape sequences decoded. */
export interface TriggerText {
  raw: string;
  /** `raw` with every backslash escape decoded; `raw` itself when it has no backslash. */
  decoded: string;
}

type Trigger = (text: TriggerText) => boolean;

const ESCAPE = /\\(u\{[\da-fA-F]+\}|u[\da-fA-F]{4}|x[\da-fA-F]{2}|[0-7]{1,3}|\r\n|[\s\S])/g;
const LINE_TERMINATOR = /^[\n\r\u2028\u2029]/;

const decodeEscape = (_match: string, body: string): string => {
  if (LINE_TERMINATOR.test(body)) return '';
  if (body.startsWith('u{')) {
    const code = Number.parseInt(body.slice(2, -1), 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  if (body.length > 1 && (body[0] === 'u' || body[0] === 'x')) return String.fromCharCode(Number.parseInt(body.slice(1), 16));
  if (/^[0-7]+$/.test(body)) return String.fromCharCode(Number.parseInt(body, 8));
  // `\a` is `a` in a string; `\n`, `\t`… become other characters, none of which is part of a name.
  return body;
};

export const triggerText = (raw: string): TriggerText => ({
  raw,
  decoded: raw.includes('\\') ? raw.replace(ESCAPE, decodeEscape) : raw,
});

const matches =
  (pattern: RegExp): Trigger =>
  ({ raw, decoded }) =>
    pattern.test(raw) || (decoded !== raw && pattern.test(decoded));

const words = (...names: string[]): Trigger => matches(new RegExp(`\\b(?:${names.join('|')})\\b`));
const all =
  (...triggers: Trigger[]): Trigger =>
  (text) =>
    triggers.every((t) => t(text));
const any =
  (...triggers: Trigger[]): Trigger =>
  (text) =>
    triggers.some((t) => t(text));

/** Every name through which request-input.ts can see request input (request parts on a request included: `req`, `request`). */
const requestInput = words(...REQUEST_OBJECTS, ...INPUT_GLOBALS, ...INPUT_PARTS);

/** Spaces, parentheses and comments between an operand and its operator. */
const GAP = String.raw`(?:\s|[()]|\/\*[\s\S]*?\*\/|\/\/[^\n\r\u2028\u2029]*)*`;
/** detect-possible-timing-attacks' names (its own list, matched whole and case-insensitively as it does). */
const SECRET_NAME = '(?:password|secret|api|apiKey|token|auth|pass|hash)';
/** A secret's name as the whole operand of `==`, `===`, `!=` or `!==`. */
const secretCompared = matches(new RegExp(String.raw`\b${SECRET_NAME}\b${GAP}[=!]=|[=!]==?${GAP}\b${SECRET_NAME}\b`, 'i'));

/** `import(…)`, comments allowed before the parenthesis. */
const importCall = matches(new RegExp(String.raw`\bimport${GAP}\(`));

export const ruleTriggers: Readonly<Record<string, Trigger>> = {
  'no-eval': words('eval'),
  'no-implied-eval': words('setTimeout', 'setInterval', 'execScript'),
  'no-new-func': words('Function'),
  'no-unsanitized/property': words('innerHTML', 'outerHTML'),
  'no-unsanitized/method': any(
    words('insertAdjacentHTML', 'createContextualFragment', 'setHTMLUnsafe'),
    // `write`/`writeln` on an object whose name matches /document/i (the plugin's own test).
    all(words('write', 'writeln'), matches(/document/i)),
    all(importCall, requestInput),
  ),
  'security/detect-disable-mustache-escape': words('escapeMarkup'),
  'security/detect-bidi-characters': matches(BIDI_CHARACTER),
  'security/detect-child-process': words('child_process'),
  'security/detect-non-literal-fs-filename': all(words('fs'), requestInput),
  'security/detect-non-literal-require': all(words('require'), requestInput),
  // `new RegExp('…')` only: literals are checked on the tree (mayReportOnRegexLiteral).
  'security/detect-unsafe-regex': words('RegExp'),
  'security/detect-pseudoRandomBytes': words('pseudoRandomBytes'),
  'security/detect-buffer-noassert': matches(/\b(?:read|write)(?:UInt|Int|Float|Double)/),
  'security/detect-invisible-characters': matches(INVISIBLE_CHARACTER),
  'security/detect-non-literal-regexp': all(words('RegExp'), requestInput),
  'security/detect-new-buffer': words('Buffer'),
  'security/detect-possible-timing-attacks': all(secretCompared, requestInput),
  'security/detect-no-csrf-before-method-override': all(words('methodOverride'), words('csrf')),
};

/** True when some rule could report on a file with this text (a rule without a trigger always could). */
export function mayReport(raw: string): boolean {
  const text = triggerText(raw);
  return Object.keys(ruleTable).some((ruleId) => ruleTriggers[ruleId]?.(text) ?? true);
}

/**
 * True when detect-unsafe-regex could keep a report on this regular-expression literal: its
 * report filter (rules.ts) keeps only patterns `hasAmbiguousNestedRepetition` accepts (ambiguous,
 * or unreadable), whatever safe-regex says.
 */
export const mayReportOnRegexLiteral = (pattern: string, flags: string): boolean => hasAmbiguousNestedRepetition(pattern, flags);
