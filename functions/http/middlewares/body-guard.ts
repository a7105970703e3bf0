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

/** 413 over 1 MiB, 415 without a JSON content type, 400 when the JSON does not parse. */
export const jsonBody = ({ optional = false } = {}): Middleware[] => {
  const parser = jsonBodyParser();
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
        if (optional && !request.event.body) {
          (request.event as { body: unknown }).body = {};
          return;
        }
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
          if (status !== undefined && status < 500) throw new ApiError('invalid_json', 'The body is not valid JSON.');
          throw error;
        }
      },
    },
  ];
};
