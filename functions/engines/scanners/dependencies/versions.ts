/**
 * Version ordering for OSV range matching.
 *
 * - Semantic versions (npm, crates.io, Go), by `semver`: `MAJOR.MINOR.PATCH[-prerelease][+build]`,
 *   a leading `v` allowed (Go), missing minor/patch read as 0 (OSV writes `introduced: "0"`), build
 *   metadata (`+incompatible`) ignored as SemVer 2.0 says. Go pseudo-versions are pre-releases and
 *   order by their timestamp, as in Go.
 * - PEP 440 (PyPI), by `@renovatebot/pep440`: epochs, pre-, post- and dev releases and local
 *   versions, with pip's normalisation of separators and spellings. Legacy (non-PEP 440) versions
 *   compare as unknown (null).
 *
 * `compareVersions` returns a negative number, 0 or a positive number, or null when either version
 * cannot be read in that ecosystem's scheme (callers then treat the range as unknown, never as a match).
 */
import { compare as pep440Compare, valid as pep440Valid } from '@renovatebot/pep440';
import semverCompare from 'semver/functions/compare.js';
import semverParse from 'semver/functions/parse.js';

/** `1` and `1.2` as `1.0.0` and `1.2.0`: OSV and Go write shortened versions. */
const completed = (version: string): string =>
  version.trim().replace(/^(v?\d+)(\.\d+)?(?=$|[-+])/, (_, major: string, minor?: string) => `${major}${minor ?? '.0'}.0`);

export const compareSemver = (left: string, right: string): number | null => {
  const a = semverParse(completed(left));
  const b = semverParse(completed(right));
  return a && b ? semverCompare(a, b) : null;
};

/** Orders like `packaging.version`: X.devN < X.aN < X.bN < X.rcN < X < X.postN; a local version sorts above its public one. */
export const comparePep440 = (left: string, right: string): number | null =>
  pep440Valid(left.trim()) !== null && pep440Valid(right.trim()) !== null ? pep440Compare(left.trim(), right.trim()) : null;

/** Compares two versions in `ecosystem`'s scheme (PEP 440 for PyPI, SemVer otherwise). */
export const compareVersions = (ecosystem: string, left: string, right: string): number | null =>
  ecosystem === 'PyPI' ? comparePep440(left, right) : compareSemver(left, right);

/** Whether two version strings name the same version (`1.0` and `1.0.0` on PyPI, `v1.2.3` and `1.2.3` for Go). */
export const sameVersion = (ecosystem: string, left: string, right: string): boolean =>
  left === right || compareVersions(ecosystem, left, right) === 0;
