import { eventCatalogue, type EventType } from './event-types';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value`'s keys in the order `example` has them (nested objects too); keys it lacks after, as they came. */
const ordered = (value: Record<string, unknown>, example: Record<string, unknown>): Record<string, unknown> => {
  const keys = [
    ...Object.keys(example).filter((key) => Object.hasOwn(value, key)),
    ...Object.keys(value).filter((key) => !Object.hasOwn(example, key)),
  ];
  return Object.fromEntries(
    keys.map((key) => {
      const item = value[key];
      const shape = example[key];
      return [key, isPlainObject(item) && isPlainObject(shape) ? ordered(item, shape) : item];
    }),
  );
};

/**
 * An event's data with its fields in the order the catalogue documents them. The table keeps a
 * map's keys in no particular order; webhooks and `GET /v1/events` show them as documented.
 */
export const inDocumentedOrder = (type: EventType, data: Record<string, unknown>): Record<string, unknown> => {
  const entry = eventCatalogue[type] as { example: Record<string, unknown> } | undefined;
  return entry ? ordered(data, entry.example) : data;
};
