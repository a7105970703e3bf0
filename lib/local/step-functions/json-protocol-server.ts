import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StepFunctionsApiError } from './executions';

/** One API operation: the parsed JSON request body in, the JSON answer out (or a StepFunctionsApiError). */
export type Operation = (request: Record<string, unknown>) => unknown;

const contentType = 'application/x-amz-json-1.0';
const targetPrefix = 'AWSStepFunctions.';

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

const answer = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'Content-Type': contentType, 'x-amzn-RequestId': randomUUID(), ...headers });
  response.end(JSON.stringify(body));
};

const answerError = (response: ServerResponse, type: string, message: string, status = 400) =>
  answer(response, status, { __type: type, message }, { 'x-amzn-ErrorType': type });

const parseRequest = (body: string): Record<string, unknown> => {
  let parsed: unknown;
  try {
    parsed = body === '' ? {} : JSON.parse(body);
  } catch {
    throw new StepFunctionsApiError('SerializationException', 'The request body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StepFunctionsApiError('SerializationException', 'The request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
};

/**
 * Step Functions' wire protocol (AWS JSON 1.0): `POST /`, the operation in `X-Amz-Target`, JSON both
 * ways, errors as 400 `{"__type", "message"}`. Requests are not signed-checked. 127.0.0.1 only.
 */
export const startJsonProtocolServer = async (operations: Record<string, Operation>, port = 0) => {
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const target = request.headers['x-amz-target'];
    const operation =
      typeof target === 'string' && target.startsWith(targetPrefix) ? operations[target.slice(targetPrefix.length)] : undefined;
    if (request.method !== 'POST' || !operation) {
      answerError(response, 'UnknownOperationException', `Unknown operation: ${String(target)}`);
      return;
    }
    try {
      answer(response, 200, operation(parseRequest(body)));
    } catch (error) {
      if (error instanceof StepFunctionsApiError) answerError(response, error.type, error.message);
      else answerError(response, 'InternalFailure', (error as Error).message, 500);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) answerError(response, 'InternalFailure', String(error), 500);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps connections alive; close() alone would wait for them.
        server.closeAllConnections();
      }),
  };
};
