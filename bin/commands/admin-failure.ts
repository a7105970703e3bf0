import type { ApiError } from '../../functions/core/errors';
import { statusOf } from '../../functions/http/error-status';
import type { Failure } from '../api/error-report';

/** An admin command's refusal, reported as the API commands report an error answer (with the status the API would give it). */
export const adminFailure = (error: ApiError): Failure => ({
  status: statusOf(error),
  code: error.code,
  message: error.message,
  details: error.details as Record<string, unknown> | undefined,
  errors: error.errors,
});
