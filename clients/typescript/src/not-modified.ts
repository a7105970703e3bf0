/**
 * The answer to a conditional GET whose copy the caller holds is still current: the API answered
 * 304 with no body. Keep using the copy; `etag` is its entity tag (send it again next time).
 */
export interface NotModified {
  readonly notModified: true;
  readonly status: 304;
  /** The current `ETag`, quoted as sent (`"…"`): the one the caller's copy carries. */
  readonly etag: string | undefined;
  /** The request id to quote to support (`X-Request-Id`). */
  readonly requestId: string | undefined;
}

export const notModifiedOf = (response: Response): NotModified => ({
  notModified: true,
  status: 304,
  etag: response.headers.get('etag') ?? undefined,
  requestId: response.headers.get('x-request-id') ?? undefined,
});

/** Whether a call's answer is `NotModified` (a string or `{ data }` body is not). */
export const isNotModified = (answer: unknown): answer is NotModified =>
  typeof answer === 'object' && answer !== null && (answer as { notModified?: unknown }).notModified === true;
