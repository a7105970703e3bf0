/**
 * Masking of secrets found in a file, so that what a scanner returns never contains them.
 *
 * `createRedactor(content, all)` takes a file's text and the spans of every secret found in it;
 * its `redact(target)` (or the one-off `redactFinding`) gives, for the secret a finding is about:
 * - `line`: the 1-based line the secret starts on;
 * - `excerpt`: that line for display, every secret span on it replaced by `***` (fully masked,
 *   no leading characters kept; a secret going on past the line's end masks the rest of the line);
 * - `snippet`: the same line for the fingerprint, the target replaced by `<secret:HASH>` (HASH =
 *   `secretHash`, so the fingerprint changes when the secret value changes but never contains it),
 *   the other secrets by `***` (so that another secret on the line changing does not change this
 *   finding's fingerprint), runs of whitespace collapsed.
 *
 * Long lines (minified code) are cut to a window of `CONTEXT_CHARS` either side of the secret,
 * marked with `…`. As a last guard, any remaining occurrence of a secret's text (or of extra values
 * the caller knows to be secret, e.g. what the detector reported) is masked too.
 */
import { createHash } from 'node:crypto';

export const SECRET_MASK = '***';
/** Characters of context kept either side of the secret on long lines. */
export const CONTEXT_CHARS = 120;
/** Secret texts shorter than this are not searched for again on the line (too likely to hit ordinary text). */
const MIN_GUARD_LENGTH = 6;
/**
 * Domain separation for the secret hash: the hash is of this prefix + the secret, so a table of
 * plain sha256 hashes of common passwords cannot be matched against stored snippets directly.
 * (48 bits of a fast hash still do not protect a guessable password from a dictionary attack on
 * the snippet: snippets of basic-auth/database findings deserve the care of the finding itself.)
 */
const HASH_DOMAIN = 'secrets-scanner/fingerprint/v1\u0000';

/** Half-open range of character offsets in a file's text. */
export interface Span {
  start: number;
  end: number;
}

export interface RedactedFinding {
  /** 1-based line of `target.start`. */
  line: number;
  /** 1-based column of `target.start`. */
  column: number;
  excerpt: string;
  /** The line for the fingerprint; the target secret appears only as its hash. */
  snippet: string;
}

/** First 12 hex digits of the (domain-separated) SHA-256 of the secret. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(HASH_DOMAIN).update(secret, 'utf8').digest('hex').slice(0, 12);
}

/** The placeholder standing for the target secret in a snippet. */
export function secretPlaceholder(secret: string): string {
  return `<secret:${secretHash(secret)}>`;
}

export interface RedactOptions {
  /** Further strings known to be secret (e.g. what the detector reported); masked wherever they appear. */
  extraSecrets?: readonly string[];
}

/** Redacts the findings of one file (line positions are indexed once per file). */
export interface FileRedactor {
  redact(target: Span, options?: RedactOptions): RedactedFinding;
}

export function createRedactor(content: string, all: readonly Span[]): FileRedactor {
  const lineStarts = [0];
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) lineStarts.push(i + 1);

  const lineAt = (offset: number): { line: number; lineStart: number; lineEnd: number } => {
    // Last line start <= offset.
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = lineStarts[lo]!;
    let lineEnd = lo + 1 < lineStarts.length ? lineStarts[lo + 1]! - 1 : content.length;
    if (lineEnd > lineStart && content[lineEnd - 1] === '\r') lineEnd--;
    return { line: lo + 1, lineStart, lineEnd };
  };

  return {
    redact(target, options = {}) {
      const start = clamp(target.start, 0, content.length);
      const end = clamp(Math.max(target.end, start), 0, content.length);
      const { line, lineStart, lineEnd } = lineAt(start);

      // Window on the line: the whole line unless it is long.
      const windowStart = Math.max(lineStart, start - CONTEXT_CHARS);
      const windowEnd = Math.min(lineEnd, Math.max(Math.min(end, lineEnd), start) + CONTEXT_CHARS);

      // Other secrets touching this line (the only ones that can show in the window).
      const others = all.filter((s) => !(s.start === start && s.end === end) && s.start < lineEnd && s.end > lineStart);
      const guards = guardStrings(content, [{ start, end }, ...others], options.extraSecrets ?? []);

      // Masked intervals inside the window; the target always has one (even if empty). Overlapping
      // intervals merge, keeping the target's marker if the target is among them.
      const intervals: Array<{ start: number; end: number; isTarget: boolean }> = [];
      const targetStart = Math.max(start, windowStart);
      intervals.push({ start: targetStart, end: Math.max(targetStart, Math.min(end, windowEnd)), isTarget: true });
      for (const s of others) {
        const a = Math.max(s.start, windowStart);
        const b = Math.min(s.end, windowEnd);
        if (a < b) intervals.push({ start: a, end: b, isTarget: false });
      }
      intervals.sort((x, y) => x.start - y.start || y.end - x.end);
      const merged: typeof intervals = [];
      for (const iv of intervals) {
        const last = merged[merged.length - 1];
        if (last && iv.start < last.end) {
          last.end = Math.max(last.end, iv.end);
          last.isTarget ||= iv.isTarget;
        } else {
          merged.push({ ...iv });
        }
      }

      const render = (targetText: string): string => {
        let out = windowStart > lineStart ? '…' : '';
        let cursor = windowStart;
        for (const iv of merged) {
          out += content.slice(cursor, iv.start) + (iv.isTarget ? targetText : SECRET_MASK);
          cursor = iv.end;
        }
        out += content.slice(cursor, windowEnd);
        if (windowEnd < lineEnd) out += '…';
        return maskGuards(out, guards);
      };

      const secret = content.slice(start, end);
      return {
        line,
        column: start - lineStart + 1,
        excerpt: render(SECRET_MASK).trim(),
        snippet: render(secretPlaceholder(secret)).replace(/\s+/g, ' ').trim(),
      };
    },
  };
}

/** One-off form of `createRedactor(content, all).redact(target, options)`. */
export function redactFinding(content: string, target: Span, all: readonly Span[], options: RedactOptions = {}): RedactedFinding {
  return createRedactor(content, all).redact(target, options);
}

/** The per-line pieces of every secret (and the extra secrets) long enough to search for safely. */
function guardStrings(content: string, spans: readonly Span[], extra: readonly string[]): string[] {
  const guards = new Set<string>();
  const add = (text: string): void => {
    for (const part of text.split(/\r?\n/)) {
      const trimmed = part.trim();
      if (trimmed.length >= MIN_GUARD_LENGTH) guards.add(trimmed);
    }
  };
  for (const s of spans) add(content.slice(s.start, s.end));
  for (const e of extra) add(e);
  // Longest first, so that a secret containing another is masked whole.
  return [...guards].sort((a, b) => b.length - a.length);
}

function maskGuards(text: string, guards: readonly string[]): string {
  let out = text;
  for (const g of guards) if (out.includes(g)) out = out.split(g).join(SECRET_MASK);
  return out;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}
