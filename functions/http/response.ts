import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError } from '../core/errors';
import { statusOf } from './error-status';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

export const jsonResponse = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** A body that is not JSON (a diff), sent as its bytes exactly (base64 through API Gateway). */
export const bytesResponse = (
  statusCode: number,
  body: Buffer,
  contentType: string,
  headers: Record<string, string> = {},
): HttpResponse => ({
  statusCode,
  headers: { 'Content-Type': contentType, ...headers },
  body: body.toString('base64'),
  isBase64Encoded: true,
});

export const emptyResponse = (statusCode: number, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers,
  body: '',
});

/** The error envelope of DESIGN.md: `{ error: { code, message, details?, errors?, request_id } }`. */
export const errorResponse = (error: ApiError, requestId: string): HttpResponse =>
  jsonResponse(
    statusOf(error),
    {
      error: {
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
        ...(error.errors === undefined || error.errors.length < 2 ? {} : { errors: error.errors }),
        request_id: requestId,
      },
    },
    error.headers,
  );

export const internalError = (): ApiError =>
  new ApiError('internal_error', 'Something went wrong on our side. Retry later; if it persists, contact support with the request id.');
