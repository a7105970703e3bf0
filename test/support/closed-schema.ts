type Json = Record<string, any>;

/**
 * The schema as examples are held to it: an object declares every field it may have, so an
 * example with a field the service never sends (a typo, a renamed field) fails, not only one that
 * lacks a required field. Maps (`additionalProperties` given) keep theirs.
 */
export const closed = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema as Json).map(([key, value]) => [key, key === 'example' ? value : closed(value)]);
  const result = Object.fromEntries(entries) as Json;
  if (result.type === 'object' && result.properties && result.additionalProperties === undefined) result.additionalProperties = false;
  return result;
};
