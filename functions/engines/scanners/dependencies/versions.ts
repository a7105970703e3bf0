/**
 * Version ordering for OSV range matching.
 *
 * - Semantic versions (npm, crates.io, Go): `MAJOR.MINOR.PATCH[-prerelease][+build]`, a leading
 *   `v` allowed (Go), missing minor/patch read as 0 (OSV writes `introduced: "0"`), build
 *   metadata (`+incompatible`) ignored as SemVer 2.0 says. Go pseudo-versions are pre-releases
 *   and order by their timestamp, as in Go.
 * - PEP 440 (PyPI): epoch, release segments (trailing zeros ignored: 1.0 == 1.0.0), pre-releases
 *   (a/alpha, b/beta, rc/c/pre/preview), post-releases (.postN, -N, rev, r), dev releases and local
 *   versions, with pip's normalisation of separators and spellings. Not supported: legacy
 *   (non-PEP 440) versions, which compare as unknown (null).
 *
 * `compareVersions` returns a negative number, 0 or a positive number, or null when either version
 * cannot be read in that ecosystem's scheme (callers then treat the range as unknown, never as a match).
 */

interface SemVer {
  release: number[];
  prerelease: Array<number | string>;
}

const semverPattern = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export const parseSemver = (version: string): SemVer | null => {
  const match = semverPattern.exec(version.trim());
  if (!match) return null;
  const release = [match[1], match[2], match[3]].map((part) => (part === undefined ? 0 : Number(part)));
  const prerelease = match[4] ? match[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { release, prerelease };
};

const compareNumbers = (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0);

const compareIdentifiers = (a: number | string, b: number | string): number => {
  if (typeof a === 'number' && typeof b === 'number') return compareNumbers(a, b);
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

export const compareSemver = (left: string, right: string): number | null => {
  const a = parseSemver(left);
  const b = parseSemver(right);
  if (!a || !b) return null;
  for (let index = 0; index < 3; index += 1) {
    const order = compareNumbers(a.release[index] ?? 0, b.release[index] ?? 0);
    if (order !== 0) return order;
  }
  // A version without pre-release sorts above its pre-releases.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return compareNumbers(b.prerelease.length, a.prerelease.length);
  for (let index = 0; index < Math.max(a.prerelease.length, b.prerelease.length); index += 1) {
    const x = a.prerelease[index];
    const y = b.prerelease[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order = compareIdentifiers(x, y);
    if (order !== 0) return order;
  }
  return 0;
};

interface Pep440 {
  epoch: number;
  release: number[];
  /** [phase rank (a 0, b 1, rc 2), number], or null. */
  pre: [number, number] | null;
  post: number | null;
  dev: number | null;
  local: Array<number | string>;
}

const pep440Pattern =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|rc|c|pre|preview)[-_.]?(\d*))?(?:-(\d+)|[-_.]?(?:post|rev|r)[-_.]?(\d*))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/;

const prePhase: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, rc: 2, c: 2, pre: 2, preview: 2 };

export const parsePep440 = (version: string): Pep440 | null => {
  const match = pep440Pattern.exec(version.trim().toLowerCase());
  if (!match?.[2]) return null;
  const release = match[2].split('.').map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  const phase = match[3];
  const postNumber = match[5] ?? match[6];
  const hasPost = match[5] !== undefined || match[6] !== undefined;
  return {
    epoch: match[1] ? Number(match[1]) : 0,
    release,
    pre: phase ? [prePhase[phase] ?? 0, Number(match[4] || 0)] : null,
    post: hasPost ? Number(postNumber || 0) : null,
    dev: match[7] !== undefined ? Number(match[7] || 0) : null,
    local: match[8] ? match[8].split(/[-_.]/).map((part) => (/^\d+$/.test(part) ? Number(part) : part)) : [],
  };
};

/** Orders like `packaging.version`: X.devN < X.aN < X.bN < X.rcN < X < X.postN; a local version sorts above its public one. */
export const comparePep440 = (left: string, right: string): number | null => {
  const a = parsePep440(left);
  const b = parsePep440(right);
  if (!a || !b) return null;
  if (a.epoch !== b.epoch) return compareNumbers(a.epoch, b.epoch);
  for (let index = 0; index < Math.max(a.release.length, b.release.length); index += 1) {
    const order = compareNumbers(a.release[index] ?? 0, b.release[index] ?? 0);
    if (order !== 0) return order;
  }
  // Pre-release key: a dev release of the final version sorts before any pre-release of it.
  const preKey = (v: Pep440): [number, number] => (v.pre ? v.pre : v.post === null && v.dev !== null ? [-1, 0] : [3, 0]);
  const [pa, pb] = [preKey(a), preKey(b)];
  if (pa[0] !== pb[0]) return compareNumbers(pa[0], pb[0]);
  if (pa[1] !== pb[1]) return compareNumbers(pa[1], pb[1]);
  const post = compareNumbers(a.post ?? -1, b.post ?? -1);
  if (post !== 0) return post;
  const dev = compareNumbers(a.dev ?? Number.POSITIVE_INFINITY, b.dev ?? Number.POSITIVE_INFINITY);
  if (dev !== 0) return dev;
  for (let index = 0; index < Math.max(a.local.length, b.local.length); index += 1) {
    const x = a.local[index];
    const y = b.local[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    // PEP 440: numeric local segments sort above alphanumeric ones.
    const order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : typeof x === 'number' ? 1 : -1;
    if (order !== 0) return order;
  }
  return 0;
};

/** Compares two versions in `ecosystem`'s scheme (PEP 440 for PyPI, SemVer otherwise). */
export const compareVersions = (ecosystem: string, left: string, right: string): number | null =>
  ecosystem === 'PyPI' ? comparePep440(left, right) : compareSemver(left, right);

/** Whether two version strings name the same version (`1.0` and `1.0.0` on PyPI, `v1.2.3` and `1.2.3` for Go). */
export const sameVersion = (ecosystem: string, left: string, right: string): boolean =>
  left === right || compareVersions(ecosystem, left, right) === 0;
