import { entityTagOf } from '../core/preconditions';
import type { Reply } from './pipeline';
import { emptyResponse } from './response';

/**
 * `If-None-Match` (RFC 9110 §13.1.2) against the representation's entity tag: `*` or any listed
 * tag equal to it by the weak comparison (a `W/` prefix is ignored), as a GET's condition is judged.
 */
export const ifNoneMatchHolds = (header: string | undefined, entityTag: string): boolean => {
  if (header === undefined) return false;
  const wanted = header.trim();
  if (wanted === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return wanted.split(',').some((tag) => opaque(tag) === opaque(entityTag));
};

/**
 * A resource's answer with its `ETag` (`entityTagOf` its `data`); to a GET whose `If-None-Match`
 * names that tag, 304 with no body instead.
 */
export const taggedReply = (data: object, ifNoneMatch?: string): Reply => {
  const etag = entityTagOf(data);
  if (ifNoneMatchHolds(ifNoneMatch, etag)) return { response: emptyResponse(304, { ETag: etag }) };
  return { data, etag };
};
