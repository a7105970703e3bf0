import { eventFrom } from '../../functions/adapters/dynamodb/event-repository';
import { inDocumentedOrder } from '../../functions/core/events/documented-order';
import { eventCatalogue } from '../../functions/core/events/event-types';

/** The keys of `value` and of its nested objects, as JSON writes them. */
const keyOrder = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).map(([key, item]) => (item && typeof item === 'object' && !Array.isArray(item) ? [key, keyOrder(item)] : key))
    : value;

/** The same object with its keys (nested too) reversed: what a DynamoDB map may give back. */
const shuffled = (value: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [
        key,
        item && typeof item === 'object' && !Array.isArray(item) ? shuffled(item as Record<string, unknown>) : item,
      ]),
  );

describe("an event's data", () => {
  it('reads back in the order the catalogue documents, nested objects too, for every event type', () => {
    for (const [type, { example }] of Object.entries(eventCatalogue) as [
      keyof typeof eventCatalogue,
      { example: Record<string, unknown> },
    ][]) {
      const read = eventFrom({ id: 'evt_1', type, created_at: '2026-11-21T10:00:00.000Z', data: shuffled(example) });
      expect([type, JSON.stringify(read.data)]).toEqual([type, JSON.stringify(example)]);
    }
  });

  it('keeps fields the example lacks, after the documented ones in name order (nested and in arrays too), and values as they are', () => {
    const data = {
      zeta: [{ b: 1, a: 2 }],
      extra: { y: 1, x: 2 },
      verdict: 'approve',
      review_id: 'rev_1',
      by_severity: { info: 2, critical: 0, unknown: 1 },
    };
    const read = inDocumentedOrder('review.completed', data);
    expect(keyOrder(read)).toEqual([
      'review_id',
      'verdict',
      ['by_severity', ['critical', 'info', 'unknown']],
      ['extra', ['x', 'y']],
      'zeta',
    ]);
    expect(JSON.stringify((read as { zeta: unknown }).zeta)).toBe('[{"a":2,"b":1}]');
    expect(read).toEqual(data);
  });

  it('reads the same JSON whatever order the table gives the keys in', () => {
    const data = { note: { second: 2, first: 1 }, workflow_id: 'wf_1', list: [{ d: 1, c: 2 }] };
    const once = JSON.stringify(inDocumentedOrder('workflow.created', data));
    expect(JSON.stringify(inDocumentedOrder('workflow.created', shuffled(data)))).toBe(once);
  });
});
