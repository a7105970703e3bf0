import { createHash } from 'node:crypto';
import { ApiError } from './errors';

/** The same value with every object's keys in sorted order: one text per representation, however it was built. */
const sortedKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
};

/**
 * A resource's entity tag (RFC 9110 §8.8.3): the SHA-256 of its JSON with sorted keys, quoted. It
 * changes whenever anything the API shows of the resource changes, whichever writer changed it.
 */
export const entityTagOf = (representation: object): string =>
  `"${createHash('sha256')
    .update(JSON.stringify(sortedKeys(representation)))
    .digest('hex')}"`;

/**
 * `If-Match` (RFC 9110 §13.1.1) against the current representation's tag: `*`, or any listed tag
 * equal to it by the strong comparison (a weak `W/` tag never matches).
 */
export const ifMatchHolds = (header: string, entityTag: string): boolean => {
  const wanted = header.trim();
  if (wanted === '*') return true;
  return wanted.split(',').some((tag) => tag.trim() === entityTag);
};

export const preconditionFailed = (): ApiError =>
  new ApiError(
    'precondition_failed',
    'The resource has changed since the ETag given in If-Match was read; nothing was changed. Read it again and retry with its current ETag.',
  );

/** Throws 412 unless `If-Match` (when sent) names the current representation. */
export const checkIfMatch = (ifMatch: string | undefined, current: object): void => {
  if (ifMatch !== undefined && !ifMatchHolds(ifMatch, entityTagOf(current))) throw preconditionFailed();
};
