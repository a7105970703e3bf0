import * as v from 'valibot';

export const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 UTC timestamp with milliseconds'));

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
      v.pipe(v.string(), v.maxLength(2048), v.description('Opaque position from the `next` link; makes deep pages as cheap as the first.')),
    ),
    ...filters,
  });

export const pageMetaSchema = v.object({
  page: v.number(),
  per_page: v.number(),
  total: v.number(),
  total_pages: v.number(),
});

/** A path id: malformed ids are unknown ids (404), so this only requires a string. */
export const idParams = v.object({ id: v.string() });
