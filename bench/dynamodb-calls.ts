import type { ClientRequest, IncomingMessage } from 'node:http';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localQueueCallHeader } from '../functions/adapters/queue/table-delivery-queue';

/**
 * Counts the calls every client in this process makes to DynamoDB Local (the runtime's handlers,
 * its stream and queue pollers), by operation, with their round-trip time: node's http client
 * reports each request on a diagnostics channel, and the operation is the X-Amz-Target header.
 * The bench's own calls carry a marker header and are left out; the local delivery queue's (SQS
 * calls in AWS) are counted under `queue <operation>`.
 */

/** The prefix of the local delivery queue's operations in a tally. */
export const queueOperationPrefix = 'queue ';

/** The stream poller's operations: Lambda's event source mapping reads the stream in AWS. */
export const streamOperations = ['DescribeStream', 'GetRecords', 'GetShardIterator'];

/** Calls the service itself makes (as it would in AWS): neither the local queue's nor the stream poller's. */
export const serviceCalls = (tally: CallTally): number =>
  Object.entries(tally.byOperation)
    .filter(([op]) => !op.startsWith(queueOperationPrefix) && !streamOperations.includes(op))
    .reduce((sum, [, c]) => sum + c.calls, 0);

const benchMarker = 'x-bench-own-call';

export interface OperationCalls {
  calls: number;
  /** Sum of the round trips (request start to response end), ms. */
  totalMs: number;
}

export interface CallTally {
  /** Operation (`GetItem`, `GetRecords`…) → calls. */
  byOperation: Record<string, OperationCalls>;
  calls: number;
  /** How long the tally ran, ms. */
  elapsedMs: number;
}

/** Marks every call of `client` as the bench's own, so the meter does not count it. */
export const markAsBenchCalls = (client: DynamoDBDocumentClient): void => {
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> } | undefined;
      if (request?.headers) request.headers[benchMarker] = '1';
      return next(args);
    },
    { step: 'build', name: 'benchOwnCallMarker' },
  );
};

type StartMessage = { request: ClientRequest };
type FinishMessage = { request: ClientRequest; response: IncomingMessage };

export interface CallMeter {
  /** Starts a new tally (the previous one is dropped). */
  reset(): void;
  /** The tally since the last reset. */
  read(): CallTally;
  close(): void;
}

export const meterDynamoCalls = (endpoint: string): CallMeter => {
  const host = new URL(endpoint).host;
  const started = new WeakMap<ClientRequest, { at: number; operation: string }>();
  let byOperation: Record<string, OperationCalls> = {};
  let since = performance.now();

  const onStart = (message: unknown): void => {
    const { request } = message as StartMessage;
    if (String(request.getHeader('host') ?? '') !== host || request.getHeader(benchMarker) !== undefined) return;
    const target = String(request.getHeader('x-amz-target') ?? 'unknown');
    const operation = target.slice(target.indexOf('.') + 1);
    const byQueue = request.getHeader(localQueueCallHeader) !== undefined;
    started.set(request, { at: performance.now(), operation: byQueue ? `${queueOperationPrefix}${operation}` : operation });
  };
  const onFinish = (message: unknown): void => {
    const { request, response } = message as FinishMessage;
    const start = started.get(request);
    if (!start) return;
    started.delete(request);
    const done = (): void => {
      const entry = (byOperation[start.operation] ??= { calls: 0, totalMs: 0 });
      entry.calls += 1;
      entry.totalMs += performance.now() - start.at;
    };
    // 'response.finish' fires when the headers are in; the body follows.
    if (response.complete) done();
    else response.once('end', done);
  };

  subscribe('http.client.request.start', onStart);
  subscribe('http.client.response.finish', onFinish);
  return {
    reset() {
      byOperation = {};
      since = performance.now();
    },
    read() {
      const snapshot = Object.fromEntries(Object.entries(byOperation).map(([op, c]) => [op, { ...c }]));
      return {
        byOperation: snapshot,
        calls: Object.values(snapshot).reduce((sum, c) => sum + c.calls, 0),
        elapsedMs: performance.now() - since,
      };
    },
    close() {
      unsubscribe('http.client.request.start', onStart);
      unsubscribe('http.client.response.finish', onFinish);
    },
  };
};
