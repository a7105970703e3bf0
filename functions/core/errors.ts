/** Every error code of the contract (DESIGN.md); `functions/http/error-status.ts` gives each its HTTP status. */
export const errorCodes = [
  'invalid_json',
  'invalid_request',
  'unauthorized',
  'insufficient_scope',
  'not_found',
  'method_not_allowed',
  'conflict',
  'idempotency_key_in_use',
  'precondition_failed',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'headers_too_large',
  'validation_error',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface FieldIssue {
  field: string;
  issue: string;
}

/**
 * A failure the caller can act on. Use cases throw it; the HTTP layer turns it into the error
 * envelope. Anything else that is thrown becomes a 500 `internal_error` with no internals.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown> | FieldIssue,
    readonly headers: Record<string, string> = {},
    readonly errors?: FieldIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
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
