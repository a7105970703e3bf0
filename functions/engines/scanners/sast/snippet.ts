/**
 * The text of a SAST finding's snippet (what its fingerprint is made from) and excerpt.
 *
 * `normaliseCode` keeps the shape of a line of JavaScript/TypeScript and drops what changes without
 * changing the issue: string contents become `"S"` (template text too, its `${…}` expressions kept
 * and normalised), numbers become `0`, a trailing `//` comment is dropped and whitespace runs are
 * collapsed. So `exec(\`ls ${dir}\`)` and `exec(\`ls -la ${dir}\`)` normalise alike, `exec(cmd)` and
 * `spawn(cmd)` do not; no literal (so no secret in a literal) reaches a snippet.
 * It works on one line: a string or template opened on an earlier line is not known about, which
 * is fine for a fingerprint (the result is still deterministic).
 */

/** Excerpts longer than this are cut (minified or generated lines). */
export const EXCERPT_MAX_CHARS = 200;
/** Lines longer than this are cut to a window around the reported column (for the snippet and the excerpt). */
export const LONG_LINE_CHARS = 400;
const WINDOW_BEFORE = 80;
const WINDOW_AFTER = 160;

/**
 * The part of a source line a finding is about: the whole line, or for a long line the window of
 * characters around the 1-based `column` (so a change far away on the same line changes nothing).
 */
export function lineWindow(line: string, column: number): { text: string; cutBefore: boolean; cutAfter: boolean } {
  if (line.length <= LONG_LINE_CHARS) return { text: line, cutBefore: false, cutAfter: false };
  const at = Math.min(Math.max(column - 1, 0), line.length);
  const start = Math.max(0, at - WINDOW_BEFORE);
  const end = Math.min(line.length, at + WINDOW_AFTER);
  return { text: line.slice(start, end), cutBefore: start > 0, cutAfter: end < line.length };
}

export function normaliseCode(line: string): string {
  return normaliseFrom(line, 0, false).text.replace(/\s+/g, ' ').trim();
}

/**
 * Normalises from `start`; inside a template expression (`inExpression`) it stops at the `}` that
 * closes it and returns the index after it.
 */
function normaliseFrom(line: string, start: number, inExpression: boolean): { text: string; end: number } {
  let out = '';
  let depth = 0;
  let i = start;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '"' || c === "'") {
      i = skipQuoted(line, i + 1, c);
      out += '"S"';
      continue;
    }
    if (c === '`') {
      const template = normaliseTemplate(line, i + 1);
      out += template.text;
      i = template.end;
      continue;
    }
    if (c === '/' && line[i + 1] === '/' && line[i - 1] !== '\\') break;
    if (/[0-9]/.test(c) && !/[\w$]/.test(line[i - 1] ?? '')) {
      const number = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?[0-9_]+)?)n?/.exec(
        line.slice(i),
      );
      out += '0';
      i += number?.[0].length ?? 1;
      continue;
    }
    if (inExpression) {
      if (c === '{') depth++;
      if (c === '}') {
        if (depth === 0) return { text: out, end: i + 1 };
        depth--;
      }
    }
    out += c;
    i++;
  }
  return { text: out, end: line.length };
}

/** A template literal from just after its opening backtick: text parts as `S`, expressions normalised. */
function normaliseTemplate(line: string, start: number): { text: string; end: number } {
  let out = '`';
  let text = false;
  let i = start;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      text = true;
      i += 2;
      continue;
    }
    if (c === '`') return { text: `${out}${text ? 'S' : ''}\``, end: i + 1 };
    if (c === '$' && line[i + 1] === '{') {
      const expression = normaliseFrom(line, i + 2, true);
      out += `${text ? 'S' : ''}\${${expression.text.trim()}}`;
      text = false;
      i = expression.end;
      continue;
    }
    text = true;
    i++;
  }
  return { text: `${out}${text ? 'S' : ''}`, end: line.length };
}

function skipQuoted(line: string, start: number, quote: string): number {
  let i = start;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return line.length;
}

/**
 * Token-like string contents (16+ characters without whitespace, mixing letters and digits) look
 * like credentials: an excerpt shows them as `***`. Finding secrets is the secrets scanner's job;
 * this only keeps a SAST excerpt (e.g. of `if (apiKey === 'sk_live_…')`) from repeating one.
 */
const tokenLikeLiteral = /(["'`])((?:(?!\1)[^\s\\]){16,})\1/g;

const looksLikeToken = (text: string): boolean => /[A-Za-z]/.test(text) && /[0-9]/.test(text);

/** The trimmed line (or window of a long line) for display, token-like literals masked, at most `EXCERPT_MAX_CHARS` characters. */
export function excerptOf(line: string, column = 1): string {
  const window = lineWindow(line, column);
  const masked = `${window.cutBefore ? '…' : ''}${window.text.trim()}${window.cutAfter ? '…' : ''}`.replace(
    tokenLikeLiteral,
    (whole: string, quote: string, body: string) => (looksLikeToken(body) ? `${quote}***${quote}` : whole),
  );
  return masked.length > EXCERPT_MAX_CHARS ? `${masked.slice(0, EXCERPT_MAX_CHARS - 1)}…` : masked;
}
