import type middy from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, validationError } from '../../core/errors';
import type { HttpResponse } from '../response';

export const maxBodyBytes = 1024 * 1024;

const bodyBytes = (event: APIGatewayProxyEventV2): number => {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
};

type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResponse>;

/** No body, or only whitespace: what a client sends when it sends nothing. */
const isBlank = (event: APIGatewayProxyEventV2): boolean =>
  !event.body || (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body).trim() === '';

/** The body of an operation that takes none may be `{}`, as clients often send; any field is unknown. */
const refuseFields = (parsed: unknown): void => {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validationError([{ field: 'body', issue: 'must be a JSON object' }]);
  }
  const fields = Object.keys(parsed);
  if (fields.length > 0) throw validationError(fields.map((field) => ({ field, issue: 'is not a known field' })));
};

/**
 * 413 over 1 MiB, 415 without a JSON content type, 400 when the JSON does not parse.
 * - `optional`: a blank body reads as `{}`.
 * - `takesNone` (a POST whose route declares no body, an action such as cancel): a blank body or
 *   `{}` passes and the body is left as sent; any other body is refused as any write's would be
 *   (413, 415, 400), and a JSON value that is not `{}` with 422 naming each of its fields. These
 *   checks come before idempotency, as a malformed body's do: a refused request is not kept.
 */
export const jsonBody = ({ optional = false, takesNone = false } = {}): Middleware[] => {
  const parser = jsonBodyParser();
  const parse = async (request: middy.Request<APIGatewayProxyEventV2, HttpResponse>): Promise<void> => {
    try {
      await parser.before?.(request as never);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 415) throw new ApiError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
      const forbiddenKey = (error as { message?: string; cause?: { data?: unknown } }).message === 'Forbidden key in JSON body';
      if (forbiddenKey) {
        const field = String((error as { cause?: { data?: unknown } }).cause?.data);
        throw validationError([{ field, issue: 'is not a known field' }]);
      }
      // Valid JSON nested thousands of levels deep exhausts the parser's stack: said as such.
      if (status !== undefined && status < 500 && /call stack/i.test(String((error as { cause?: { message?: unknown } }).cause?.message)))
        throw new ApiError(
          'invalid_json',
          'The body nests arrays and objects too deeply to be read (thousands of levels); send a flatter body.',
        );
      if (status !== undefined && status < 500) throw new ApiError('invalid_json', 'The body is not valid JSON.');
      throw error;
    }
  };
  return [
    {
      before: (request) => {
        if (bodyBytes(request.event) > maxBodyBytes) {
          throw new ApiError('payload_too_large', `The body is larger than ${maxBodyBytes} bytes (1 MiB).`);
        }
      },
    },
    {
      before: async (request) => {
        if (takesNone) {
          if (isBlank(request.event)) return;
          // Parsed on a copy: the event keeps the body as sent (the idempotency fingerprint reads it).
          const copy = { ...request, event: { ...request.event } };
          await parse(copy);
          refuseFields(copy.event.body);
          return;
        }
        if (optional && isBlank(request.event)) {
          (request.event as { body: unknown }).body = {};
          return;
        }
        await parse(request);
      },
    },
  ];
};
