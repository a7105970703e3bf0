import * as v from 'valibot';
import { idPattern, idPrefixes } from '../../core/ids';

// Schemas here and in the domains' body and query files are built in one call marked pure, so a
// bundle keeps only those its handler uses (see webhooks-bodies.ts).
export const timestamp = /* @__PURE__ */ (() =>
  v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 UTC timestamp with milliseconds')))();

/**
 * The times every job resource carries (workflows, scans, reviews, deployments, test suites and
 * runs); `started_at` and `completed_at` are null until the job starts and ends.
 */
export const jobTimestamps = /* @__PURE__ */ (() => ({
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
}))();

/** Length in Unicode code points, as JSON Schema's `minLength`/`maxLength` count (not UTF-16 units). */
export const codePointLength = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

/** Actions the OpenAPI document shows as JSON Schema keywords of their own (see build-document.ts). */
export const documentedKeywords = new WeakMap<object, Record<string, unknown>>();

/** `action`, shown in the OpenAPI document as `keywords` (what the check enforces, said in JSON Schema). */
export const documentedAs = <A extends object>(action: A, keywords: Record<string, unknown>): A => {
  documentedKeywords.set(action, keywords);
  return action;
};

/**
 * A string length checked in code points, and documented as `minLength`/`maxLength` (which JSON
 * Schema counts in code points too): 100 emoji are 100 characters, as a caller counts them.
 */
export const lengthIn = (min: number, max: number, message: string) => {
  const action = v.check((text: string) => {
    const length = codePointLength(text);
    return length >= min && length <= max;
  }, message);
  documentedKeywords.set(action, min > 0 ? { minLength: min, maxLength: max } : { maxLength: max });
  return action;
};

/** Explicit directional formatting (LRE…RLO, LRI…PDI, LRM, RLM, ALM): they can make a name read as another. */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** In a `u` regular expression a surrogate range matches only a surrogate that is not half of a pair. */
const loneSurrogate = /[\ud800-\udfff]/u;
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

/** Characters that show nothing: space of any kind and invisible formatting (zero-width space, joiners, BOM). */
const invisible = /^[\s\p{Cf}]*$/u;
/** Control characters a free text may not hold: all but tab, line feed and carriage return. */
const controlsBesideLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A display name: 1 to `max` code points, not blank, no control or bidirectional control characters, no lone surrogates. */
export const nameText = (max: number, description: string) =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(1, max, `must be 1 to ${max} characters`),
    v.check((text) => !invisible.test(text), 'must not be blank'),
    v.check((text) => !loneSurrogate.test(text), 'must be valid Unicode (no lone surrogates)'),
    v.check((text) => !controlCharacters.test(text), 'must not contain control characters'),
    v.check((text) => !bidiControls.test(text), 'must not contain bidirectional control characters'),
    v.description(description),
  );

/** A free text of up to `max` code points (a description): lines and tabs, no other control character, no lone surrogates. */
export const freeText = (max: number, description: string) =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(0, max, `must be at most ${max} characters`),
    v.check((text) => !loneSurrogate.test(text), 'must be valid Unicode (no lone surrogates)'),
    v.check((text) => !controlsBesideLineBreaks.test(text), 'must not contain control characters other than tab and line breaks'),
    v.description(description),
  );

/** A whole number in a JSON body from `min` to `max`; every refusal says the range. */
export const wholeNumberIn = (min: number, max: number, description: string) =>
  v.pipe(
    v.number('must be a whole number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be ${min} to ${max}`),
    v.maxValue(max, `must be ${min} to ${max}`),
    v.description(description),
  );

/**
 * The rules of `git check-ref-format --branch` that the repository layer applies
 * (`branchNameProblem`), as one pattern the OpenAPI document can show.
 */
export const branchNamePattern =
  /^(?!-|@$|\/|.*\/\/|.*\/$|.*\.\.|.*@\{|.*\.$|(?:.*\/)?\.|.*\.lock(?:\/|$))[^\s~^:?*[\\\u0000-\u001f\u007f]+$/;

/** A git branch name, 1 to 255 characters (`branchNamePattern`). Each body adds its own description. */
export const branchName = /* @__PURE__ */ (() =>
  v.pipe(
    v.string('must be a string'),
    lengthIn(1, 255, 'must be 1 to 255 characters'),
    v.regex(branchNamePattern, 'must be a valid git branch name'),
  ))();

/** A whole number in a query string, checked and converted. */
export const integerParam = (min: number, max: number, description: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, 'must be a whole number'),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.description(description),
  );

const isCalendarDate = (text: string): boolean => {
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(text);
};

/**
 * Parameters the OpenAPI document shows as sent (a date string), not as parsed (a number). Others
 * are shown as parsed, so that `per_page` documents an integer from 1 to 100.
 */
export const documentedAsSent = new WeakSet<object>();

/**
 * An ISO 8601 timestamp a caller sends (`date-time`), refused unless it names a real instant:
 * `2026-02-30T00:00:00Z` is not rolled over to March 2, it is a 422.
 */
export const timestampInput = (message: string, description: string) =>
  v.pipe(
    v.string(message),
    v.isoTimestamp(message),
    v.check((text) => isCalendarDate(text.slice(0, 10)) && Number.isFinite(Date.parse(text)), 'must be a real date and time'),
    v.description(description),
  );

/** `YYYY-MM-DD`, read as 00:00Z of that day, in epoch milliseconds. */
export const dateParam = (description: string) => {
  const schema = v.pipe(
    v.string(),
    v.description(description),
    v.isoDate('must be a date in the form YYYY-MM-DD'),
    v.check(isCalendarDate, 'must be a real calendar date'),
    v.transform((text: string) => Date.parse(`${text}T00:00:00.000Z`)),
    v.number(),
  );
  documentedAsSent.add(schema);
  return schema;
};

/**
 * A list's filter by the id of another resource (`project_id`, `scan_id`): an id of that kind, else
 * 422 (an invalid value, as for any parameter). An id of nothing (a project deleted, whose scans and
 * reviews stay) is a valid filter of what is left.
 */
export const idFilterParam = (kind: 'project' | 'scan', description: string) =>
  v.pipe(
    v.string(),
    v.regex(idPattern(kind), `must be a ${kind} id (${idPrefixes[kind]} followed by 26 characters)`),
    v.description(description),
  );

export const picklistParam = <const T extends readonly [string, ...string[]]>(options: T, description: string) =>
  v.pipe(v.picklist(options, `must be one of ${options.join(', ')}`), v.description(description));

/** The query parameters every list takes (DESIGN.md), plus the list's own filters. */
export const listQuery = <const S extends readonly [string, ...string[]], F extends v.ObjectEntries>(sortFields: S, filters: F) =>
  v.strictObject({
    page: v.optional(integerParam(1, 1_000_000, 'Page number, from 1. A page past the end is empty.')),
    per_page: v.optional(integerParam(1, 100, 'Items per page, 1 to 100; default 20.')),
    sort: v.optional(picklistParam(sortFields, `Field to sort by; default ${sortFields[0]}. Ties are broken by id.`)),
    order: v.optional(picklistParam(['asc', 'desc'] as const, 'Sort direction; default desc.')),
    created_after: v.optional(dateParam('Only items created at or after 00:00Z of this day (YYYY-MM-DD).')),
    created_before: v.optional(dateParam('Only items created before 00:00Z of this day (YYYY-MM-DD).')),
    cursor: v.optional(
      v.pipe(
        v.string(),
        lengthIn(1, 2048, 'must be a cursor from a Link header'),
        v.regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor from a Link header'),
        v.description('Opaque position from the `next` link; makes deep pages as cheap as the first.'),
      ),
    ),
    ...filters,
  });

export const pageMetaSchema = /* @__PURE__ */ (() =>
  v.object({
    page: v.number(),
    per_page: v.number(),
    total: v.number(),
    total_pages: v.number(),
  }))();

/** A path id: malformed ids are unknown ids (404), so this only requires a string. */
export const idParams = /* @__PURE__ */ (() => v.object({ id: v.string() }))();
