import { Agent, request } from 'node:http';
import { percentile } from './stats';

/**
 * A small closed-loop load generator: `concurrency` workers, each sending its next request as soon
 * as the previous one is answered, until a fixed number of requests has been sent.
 */

export interface LoadResult {
  name: string;
  concurrency: number;
  requests: number;
  elapsedMs: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests answered as expected. */
  ok: number;
  /** Count per unexpected status, or per transport error message. */
  errors: Record<string, number>;
  /** The first unexpected answer, to tell what went wrong. */
  firstError?: string;
}

/** One request: undefined when it went as expected, else what went wrong (the error's key) and details. */
export type Attempt = (i: number) => Promise<undefined | { error: string; detail: string }>;

export interface LoopSpec {
  name: string;
  concurrency: number;
  requests: number;
  attempt: Attempt;
  /** Index of the first request, so bodies stay unique across runs. */
  firstIndex?: number;
}

export const runClosedLoop = async ({ name, concurrency, requests, attempt, firstIndex = 0 }: LoopSpec): Promise<LoadResult> => {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let firstError: string | undefined;
  let issued = 0;
  const fail = (key: string, detail: string): void => {
    errors[key] = (errors[key] ?? 0) + 1;
    firstError ??= detail;
  };

  const worker = async (): Promise<void> => {
    while (issued < requests) {
      const i = firstIndex + issued;
      issued += 1;
      const started = performance.now();
      try {
        const outcome = await attempt(i);
        latencies.push(performance.now() - started);
        if (outcome) fail(outcome.error, outcome.detail);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        fail(message, message);
      }
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;
  const failed = Object.values(errors).reduce((sum, n) => sum + n, 0);
  return {
    name,
    concurrency,
    requests,
    elapsedMs,
    requestsPerSecond: (requests / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: percentile(latencies, 100),
    ok: requests - failed,
    errors,
    firstError,
  };
};

export interface HttpSpec {
  name: string;
  method: 'GET' | 'POST';
  /** On 127.0.0.1. */
  port: number;
  path: string;
  headers: Record<string, string>;
  /** The body of request number `i`, if the request has one. */
  body?: (i: number) => string;
  expectedStatus: number;
  concurrency: number;
  requests: number;
}

const send = (agent: Agent, spec: HttpSpec, i: number): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const body = spec.body?.(i);
    const headers = body === undefined ? spec.headers : { ...spec.headers, 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request({ agent, host: '127.0.0.1', port: spec.port, method: spec.method, path: spec.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.once('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('timed out after 30 s')));
    req.end(body);
  });

/** `spec.requests` HTTP requests over `spec.concurrency` keep-alive connections (node's http.Agent). */
export const runHttpLoad = async (spec: HttpSpec, firstIndex = 0): Promise<LoadResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  try {
    return await runClosedLoop({
      name: spec.name,
      concurrency: spec.concurrency,
      requests: spec.requests,
      firstIndex,
      attempt: async (i) => {
        const answer = await send(agent, spec, i);
        return answer.status === spec.expectedStatus
          ? undefined
          : { error: `HTTP ${answer.status}`, detail: `HTTP ${answer.status} ${answer.body.slice(0, 300)}` };
      },
    });
  } finally {
    agent.destroy();
  }
};
