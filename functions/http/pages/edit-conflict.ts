import { originalFieldName } from '../../pages/parts/original-values';

type Fields = Record<string, unknown>;

/** The values an edit form was filled from, as it sent them back; undefined when missing or not an object. */
export const originalValuesOf = (form: URLSearchParams): Fields | undefined => {
  try {
    const parsed: unknown = JSON.parse(form.get(originalFieldName) ?? '');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Fields) : undefined;
  } catch {
    return undefined;
  }
};

/** Equal as a form's values are: strings as they are, lists in any order. */
const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && [...a].map(String).sort().join('\n') === [...b].map(String).sort().join('\n')
    : a === b;

/**
 * The form to show when someone else saved first: the record as it is now, with the fields this
 * person changed from what the form was filled from (`original`) put back on top. Saving that
 * again keeps the other change; without `original`, the record as it is now (nothing overwritten).
 */
export const mergedAfterConflict = <T extends object>(sent: T, original: Fields | undefined, current: T): T => {
  const typed = sent as Fields;
  return Object.fromEntries(
    Object.entries(current).map(([field, now]) => [
      field,
      original && field in original && !sameValue(typed[field], original[field]) ? typed[field] : now,
    ]),
  ) as T;
};
