import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, validationError } from '../../core/errors';
import type { HttpResponse } from '../response';

export const maxBodyBytes = 1024 * 1024;

type Middleware = middy.MiddlewareObj<APIGatewayProxyEventV2, HttpResponse>;

// Built on the first base64 body, not at import: most bodies arrive as text.
let utf8: TextDecoder | undefined;

/**
 * The body decoded once: its size in bytes (what the 1 MiB limit counts) and its text, `undefined`
 * when its bytes are not UTF-8. Those are refused rather than read with U+FFFD in their place, which
 * would store something other than what was sent.
 */
const bodyOf = (event: APIGatewayProxyEventV2): { bytes: number; text: () => string | undefined } => {
  if (!event.body) return { bytes: 0, text: () => '' };
  if (!event.isBase64Encoded) {
    const body = event.body;
    return { bytes: Buffer.byteLength(body), text: () => body };
  }
  const raw = Buffer.from(event.body, 'base64');
  return {
    bytes: raw.length,
    text: () => {
      try {
        return (utf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(raw);
      } catch {
        return undefined;
      }
    },
  };
};

/** The body of an operation that takes none may be `{}`, as clients often send; any field is unknown. */
const refuseFields = (parsed: unknown): void => {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validationError([{ field: 'body', issue: 'must be a JSON object' }]);
  }
  const fields = Object.keys(parsed);
  if (fields.length > 0) throw validationError(fields.map((field) => ({ field, issue: 'is not a known field' })));
};

/** `application/json`, or a JSON-based type such as `application/merge-patch+json`, with any parameters. */
const jsonContentType = /^application\/([a-z0-9.+-]+\+)?json(;|$)/i;

/** Keys that would reach an object's prototype if a use case ever merged the body into one. */
const isPrototypeKey = (key: string, value: unknown): boolean =>
  key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'));

/**
 * The body as JSON. Parsed here rather than by `@middy/http-json-body-parser`: its helper module
 * loads node's HTTP stack at import for one table of status texts, a cost every writer's cold start
 * paid for nothing (`docs/performance.md`).
 */
const parsedJson = (event: APIGatewayProxyEventV2, text: string | undefined): unknown => {
  // API Gateway (and the local runtime) hand every header name over in lower case.
  const contentType = event.headers['content-type'];
  if (contentType === undefined || !jsonContentType.test(contentType))
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
  if (text === undefined) throw new ApiError('invalid_json', 'The body is not valid UTF-8; send JSON encoded as UTF-8.');
  let forbidden: string | undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      if (isPrototypeKey(key, value)) forbidden ??= key;
      return value;
    });
  } catch (error) {
    // Valid JSON nested thousands of levels deep exhausts the parser's stack: said as such.
    if (error instanceof RangeError)
      throw new ApiError(
        'invalid_json',
        'The body nests arrays and objects too deeply to be read (thousands of levels); send a flatter body.',
      );
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
  if (forbidden !== undefined) throw validationError([{ field: forbidden, issue: 'is not a known field' }]);
  return parsed;
};

/**
 * 413 over 1 MiB, 415 without a JSON content type, 400 when the JSON does not parse.
 * - A blank body (none, or only whitespace, whatever its content type) reads as `{}`, so an operation
 *   that needs fields answers 422 naming each one missing rather than calling nothing malformed JSON.
 * - `takesNone` (a POST whose route declares no body, an action such as cancel): a blank body or
 *   `{}` passes and the body is left as sent; any other body is refused as any write's would be
 *   (413, 415, 400), and a JSON value that is not `{}` with 422 naming each of its fields. These
 *   checks come before idempotency, as a malformed body's do: a refused request is not kept.
 */
export const jsonBody = ({ takesNone = false } = {}): Middleware[] => {
  return [
    {
      before: (request) => {
        const body = bodyOf(request.event);
        if (body.bytes > maxBodyBytes) {
          throw new ApiError('payload_too_large', `The body is larger than ${maxBodyBytes} bytes (1 MiB).`);
        }
        const text = body.text();
        // No body, or only whitespace: what a client sends when it sends nothing.
        const blank = text?.trim() === '';
        if (takesNone) {
          if (!blank) refuseFields(parsedJson(request.event, text));
          // The body stays text (decoded if it came base64-encoded): the idempotency fingerprint
          // reads it, and takes a blank one or `{}` for no body only as text.
          if (request.event.isBase64Encoded) Object.assign(request.event, { body: text, isBase64Encoded: false });
          return;
        }
        if (blank) {
          (request.event as { body: unknown }).body = {};
          return;
        }
        (request.event as { body: unknown }).body = parsedJson(request.event, text);
      },
    },
  ];
};
