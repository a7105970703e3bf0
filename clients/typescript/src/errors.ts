import { retryAfterMs } from './retry.js';

/**
 * The kinds an error of the SDK is, kept on it under a key shared by the ES module and CommonJS
 * builds: a process may load both (an ES module app whose CommonJS library requires the SDK), and
 * an error thrown by one build's classes is still `instanceof` the other's.
 */
const kinds = Symbol.for('@project-automation-service/sdk:error-kinds');

/**
 * Everything the SDK throws is a `ServiceError`, but for a call the caller's own `signal` aborted:
 * that one rejects with the signal's reason, as `fetch` does.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';
  /** What `instanceof` this class looks for on an error of the other build. */
  static readonly kind: string = 'ServiceError';

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const marked = typeof value === 'object' && value !== null ? (value as { [kinds]?: unknown })[kinds] : undefined;
    return Array.isArray(marked) && marked.includes(this.kind);
  }

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    const marks: string[] = [];
    for (let type: { kind?: unknown } | null = new.target; type && type !== Error; type = Object.getPrototypeOf(type))
      if (typeof type.kind === 'string' && !marks.includes(type.kind)) marks.push(type.kind);
    Object.defineProperty(this, kinds, { value: marks });
  }
}

/** The body of every error answer: `{ error: { code, message, details?, errors?, request_id } }`. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  errors?: { field?: string; issue?: string }[];
  request_id?: string;
}

/** The API answered with an error status; carries its code, message, details and request id. */
export class ServiceApiError extends ServiceError {
  override name = 'ServiceApiError';
  static override readonly kind: string = 'ServiceApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The envelope's `error.code`: `validation_error`, `not_found`, `rate_limited`, … */
  readonly code: string;
  /** For `validation_error`: `{ field, issue }`; for `insufficient_scope`: `{ required_scope }`. */
  readonly details: Record<string, unknown> | undefined;
  /** Every field's first issue, when there are several. */
  readonly errors: { field?: string; issue?: string }[] | undefined;
  /** The request id to quote to support (`X-Request-Id`). */
  readonly requestId: string | undefined;
  /** How long the API asked to wait before trying again (`Retry-After` of a 429 or 503), in ms. */
  readonly retryAfterMs: number | undefined;
  readonly headers: Headers;

  constructor(status: number, body: ErrorBody, headers: Headers) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.details = body.details;
    this.errors = body.errors;
    // This answer's own id: a replayed answer's body names the request that first made it.
    this.requestId = headers.get('x-request-id') ?? body.request_id ?? undefined;
    this.retryAfterMs = retryAfterMs(headers.get('retry-after'));
    this.headers = headers;
  }
}

/** No answer came: the connection failed on every attempt. */
export class ServiceConnectionError extends ServiceError {
  override name = 'ServiceConnectionError';
  static override readonly kind: string = 'ServiceConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer came within the timeout, on every attempt. */
export class ServiceTimeoutError extends ServiceConnectionError {
  override name = 'ServiceTimeoutError';
  static override readonly kind: string = 'ServiceTimeoutError';
}

/** A webhook's signature did not verify (wrong secret, altered body, stale or malformed header). */
export class WebhookSignatureError extends ServiceError {
  override name = 'WebhookSignatureError';
  static override readonly kind: string = 'WebhookSignatureError';
}

const isErrorBody = (value: unknown): value is { error: ErrorBody } => {
  const error = (value as { error?: unknown } | null)?.error as Partial<ErrorBody> | undefined;
  return typeof error?.code === 'string' && typeof error.message === 'string';
};

/** The typed error of an answer that is not a success; the body is read from a clone. */
export const errorOf = async (response: Response, parsed?: unknown): Promise<ServiceApiError> => {
  let body = parsed;
  // openapi-fetch has read the body already when it hands over what it parsed.
  if (!isErrorBody(body) && !response.bodyUsed) {
    const text = await response
      .clone()
      .text()
      .catch(() => '');
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const envelope: ErrorBody = isErrorBody(body)
    ? body.error
    : { code: `http_${response.status}`, message: `The API answered ${response.status} ${response.statusText}`.trim() };
  return new ServiceApiError(response.status, envelope, response.headers);
};
