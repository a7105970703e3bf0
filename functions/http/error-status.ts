import type { ApiError, ErrorCode } from '../core/errors';

/** The HTTP status of every error code of the contract (DESIGN.md). */
export const errorStatus = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  headers_too_large: 431,
  validation_error: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;

export const statusOf = (error: ApiError): number => errorStatus[error.code];
