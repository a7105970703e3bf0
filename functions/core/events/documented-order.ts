import { eventCatalogue, type EventType } from './event-types';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The same value with every object's keys in name order, in arrays too: a map the table gives back
 * reads the same whatever order its keys came in.
 */
const inNameOrder = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(inNameOrder);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, inNameOrder(value[key])]),
  );
};

/** `value`'s keys in the order `example` has them (nested objects too); keys it lacks after, in name order. */
const ordered = (value: Record<string, unknown>, example: Record<string, unknown>): Record<string, unknown> => {
  const keys = [
    ...Object.keys(example).filter((key) => Object.hasOwn(value, key)),
    ...Object.keys(value)
      .filter((key) => !Object.hasOwn(example, key))
      .sort(),
  ];
  return Object.fromEntries(
    keys.map((key) => {
      const item = value[key];
      const shape = example[key];
      return [key, isPlainObject(item) && isPlainObject(shape) ? ordered(item, shape) : inNameOrder(item)];
    }),
  );
};

/**
 * An event's data with its fields in the order the catalogue documents them, any others in name
 * order. The table keeps a map's keys in no particular order; webhooks and `GET /v1/events` show
 * them as documented, and every read of one event gives the same JSON (a delivery's attempts send
 * the event as read for each).
 */
export const inDocumentedOrder = (type: EventType, data: Record<string, unknown>): Record<string, unknown> => {
  const entry = eventCatalogue[type] as { example: Record<string, unknown> } | undefined;
  return ordered(data, entry?.example ?? {});
};
