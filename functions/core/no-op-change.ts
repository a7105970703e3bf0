/**
 * Whether a change leaves the record as it is: every field it gives (undefined ones are not
 * given) is, as JSON, what is stored. Such a change is not written, so nothing the record shows
 * moves. The fields changed are strings, booleans, null and lists of strings, so their JSON is one
 * text per value.
 */
export const changesNothing = (current: object, changes: object): boolean =>
  Object.entries(changes).every(
    ([field, value]) => value === undefined || JSON.stringify((current as Record<string, unknown>)[field]) === JSON.stringify(value),
  );
