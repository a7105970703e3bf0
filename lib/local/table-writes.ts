import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

const writeOperations = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/**
 * Calls `onWrite` after every write this process makes to DynamoDB Local at `endpoint` is answered
 * (every client in the process goes through node:http, which reports each response on a
 * diagnostics channel). The local stream poller waits on this instead of reading an idle stream
 * many times a second: the runtime's handlers, the bench and anything else in the process write
 * here. Writes from other processes are found by the poller's next regular read. Returns the
 * function that stops watching.
 */
export const watchTableWrites = (endpoint: string, onWrite: () => void): (() => void) => {
  const host = new URL(endpoint).host;
  const channel = 'http.client.response.finish';
  const listener = (message: unknown): void => {
    const { request } = message as { request: ClientRequest };
    if (request.getHeader('host') !== host) return;
    const operation = String(request.getHeader('x-amz-target') ?? '').split('.')[1];
    if (operation !== undefined && writeOperations.has(operation)) onWrite();
  };
  subscribe(channel, listener);
  return () => unsubscribe(channel, listener);
};
