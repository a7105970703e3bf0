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
