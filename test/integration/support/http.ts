import { checkAnswer } from './contract';
import { apiUrl } from './runtime';

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string;
  /** A JSON value, sent with Content-Type: application/json. */
  json?: unknown;
  /** A raw body, sent as is. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Skips the check against the OpenAPI document, for the few tests that send what no client would (a raw request line). */
  unchecked?: boolean;
}

/** One real HTTP request to the local runtime; `path` is relative to /v1. */
export const call = async <T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> => {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.key) headers.Authorization ??= `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  // A Buffer is a valid body; the DOM typings that preact's JSX brings in do not say so.
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body: body as RequestInit['body'] });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const answer = { status: response.status, headers: response.headers, body: parsed as T, text };
  // Every answer of the integration tier is a contract check: what the served document declares.
  if (!options.unchecked) await checkAnswer(method, path, answer);
  return answer;
};

/** A client bound to one key. */
export const as = (key: string) => ({
  get: <T = any>(path: string, options: CallOptions = {}) => call<T>('GET', path, { key, ...options }),
  post: <T = any>(path: string, json?: unknown, options: CallOptions = {}) => call<T>('POST', path, { key, json, ...options }),
  patch: <T = any>(path: string, json?: unknown, options: CallOptions = {}) => call<T>('PATCH', path, { key, json, ...options }),
  delete: <T = any>(path: string, options: CallOptions = {}) => call<T>('DELETE', path, { key, ...options }),
});
