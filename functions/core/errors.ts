/** Every error code of the HTTP contract (DESIGN.md), with its status. */
export const errorStatus = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldIssue {
  field: string;
  issue: string;
}

/**
 * A failure the caller can act on. Use cases throw it; the HTTP layer turns it into the error
 * envelope. Anything else that is thrown becomes a 500 `internal_error` with no internals.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown> | FieldIssue,
    readonly headers: Record<string, string> = {},
    readonly errors?: FieldIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorStatus[code];
  }
}

export const notFound = (what: string): ApiError => new ApiError('not_found', `${what} not found.`);

export const conflict = (message: string): ApiError => new ApiError('conflict', message);

export const validationError = (issues: FieldIssue[], message?: string): ApiError => {
  const [first] = issues;
  return new ApiError(
    'validation_error',
    message ?? (first ? `Invalid ${first.field}: ${first.issue}` : 'The request is invalid.'),
    first,
    {},
    issues,
  );
};
