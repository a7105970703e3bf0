import type { OsvVulnerability } from '../../../../functions/engines/scanners/dependencies/advisories';
import { severityOf } from '../../../../functions/engines/scanners/dependencies/advisory-severity';
import { cvss2BaseScore, cvss3BaseScore, cvss4BaseScore, severityOfScore } from '../../../../functions/engines/scanners/dependencies/cvss';
import { fixedVersionAbove, rangeAffects, vulnerabilityAffects } from '../../../../functions/engines/scanners/dependencies/osv-match';
import { comparePep440, compareSemver } from '../../../../functions/engines/scanners/dependencies/versions';

const sign = (value: number | null) => (value === null ? null : Math.sign(value));

describe('compareSemver', () => {
  it.each([
    ['1.2.3', '1.2.4', -1],
    ['1.10.0', '1.9.9', 1],
    ['v1.2.3', '1.2.3', 0],
    ['1.2.3+incompatible', '1.2.3', 0],
    ['1.0.0-alpha', '1.0.0', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-rc.1', '1.0.0-beta.11', 1],
    ['0', '0.0.1', -1],
    ['1', '1.0.0', 0],
    ['v0.0.0-20210101000000-abcdef123456', 'v0.0.0-20220101000000-abcdef123456', -1],
    ['v0.0.0-20220101000000-abcdef123456', '0.1.0', -1],
    ['1.2', '1.2.0', 0],
    ['v1.2-rc.1', '1.2.0', -1],
    ['1.0.0-alpha+build.1', '1.0.0-alpha+build.2', 0],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(sign(compareSemver(a, b))).toBe(expected);
  });

  it('cannot compare what is not a version', () => {
    expect(compareSemver('latest', '1.0.0')).toBeNull();
    expect(compareSemver('1.2.3.4', '1.0.0')).toBeNull();
    expect(compareSemver('01.2.3', '1.2.3')).toBeNull();
  });
});

describe('comparePep440', () => {
  it.each([
    ['1.0', '1.0.0', 0],
    ['1.0.dev1', '1.0a1', -1],
    ['1.0a1', '1.0a2', -1],
    ['1.0a2', '1.0b1', -1],
    ['1.0b1', '1.0rc1', -1],
    ['1.0rc1', '1.0', -1],
    ['1.0', '1.0.post1', -1],
    ['1.0.post1', '1.0.1', -1],
    ['1.0-1', '1.0.post1', 0],
    ['1.0c1', '1.0rc1', 0],
    ['1.0alpha1', '1.0a1', 0],
    ['1.0a1.dev1', '1.0a1', -1],
    ['1!0.5', '2.0', 1],
    ['1.0+local.1', '1.0', 1],
    ['2.11.3rc1', '2.11.3', -1],
    ['3.2.18', '3.2.19', -1],
    ['V1.0', '1.0', 0],
    ['1.0.post1.dev1', '1.0.post1', -1],
    ['1.0+abc.5', '1.0+abc.10', -1],
    ['1.0+5', '1.0+abc', 1],
    ['1.0-dev1', '1.0.dev1', 0],
    ['1.0rc1.post1', '1.0rc2', -1],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(sign(comparePep440(a, b))).toBe(expected);
  });

  it('cannot compare legacy versions', () => {
    expect(comparePep440('2004d', '1.0')).toBeNull();
  });
});

describe('OSV ranges', () => {
  const range = (events: object[], type = 'SEMVER') => ({ type, events }) as never;

  it.each([
    ['0.9.0', false],
    ['1.0.0', true],
    ['1.4.9', true],
    ['1.5.0', false],
    ['2.0.0', true],
    ['2.1.0', true],
    ['2.1.1', false],
  ])('introduced 1.0.0 fixed 1.5.0, introduced 2.0.0 last_affected 2.1.0: %s → %s', (version, expected) => {
    const events = [{ introduced: '2.0.0' }, { last_affected: '2.1.0' }, { introduced: '1.0.0' }, { fixed: '1.5.0' }];
    expect(rangeAffects('npm', range(events), version)).toBe(expected);
  });

  it('introduced 0 means every version; GIT ranges are not evaluated', () => {
    expect(rangeAffects('Go', range([{ introduced: '0' }, { fixed: '0.3.8' }]), 'v0.3.7')).toBe(true);
    expect(rangeAffects('Go', range([{ introduced: '0' }, { fixed: '0.3.8' }]), 'v0.3.8')).toBe(false);
    expect(rangeAffects('npm', range([{ introduced: '0' }], 'GIT'), '1.0.0')).toBeNull();
  });

  it('ECOSYSTEM ranges on PyPI use PEP 440', () => {
    expect(rangeAffects('PyPI', range([{ introduced: '0' }, { fixed: '2.11.3' }], 'ECOSYSTEM'), '2.11.3rc1')).toBe(true);
    expect(rangeAffects('PyPI', range([{ introduced: '0' }, { fixed: '2.11.3' }], 'ECOSYSTEM'), '2.11.3.post1')).toBe(false);
  });

  const vulnerability: OsvVulnerability = {
    id: 'X-1',
    affected: [
      {
        package: { ecosystem: 'PyPI', name: 'Foo_Bar' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '1.2' }, { introduced: '2.0' }, { fixed: '2.0.5' }] }],
      },
      { package: { ecosystem: 'PyPI', name: 'other' }, versions: ['1.1'] },
    ],
  };

  it('matches PyPI names normalised, and finds the lowest fix above the installed version', () => {
    expect(vulnerabilityAffects(vulnerability, { ecosystem: 'PyPI', name: 'foo-bar', version: '1.1' })).toBe(true);
    expect(vulnerabilityAffects(vulnerability, { ecosystem: 'PyPI', name: 'foo.bar', version: '1.5' })).toBe(false);
    expect(vulnerabilityAffects(vulnerability, { ecosystem: 'npm', name: 'Foo_Bar', version: '1.1.0' })).toBe(false);
    expect(fixedVersionAbove(vulnerability, { ecosystem: 'PyPI', name: 'foo-bar', version: '1.1' })).toBe('1.2');
    expect(fixedVersionAbove(vulnerability, { ecosystem: 'PyPI', name: 'foo-bar', version: '2.0.1' })).toBe('2.0.5');
    expect(fixedVersionAbove(vulnerability, { ecosystem: 'PyPI', name: 'other', version: '1.1' })).toBeNull();
    expect(
      vulnerabilityAffects({ ...vulnerability, withdrawn: '2024-01-01' }, { ecosystem: 'PyPI', name: 'foo-bar', version: '1.1' }),
    ).toBe(false);
  });

  it('gives Go fixed versions the leading v', () => {
    const go: OsvVulnerability = {
      id: 'GO-1',
      affected: [
        { package: { ecosystem: 'Go', name: 'm' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '0.3.8' }] }] },
      ],
    };
    expect(fixedVersionAbove(go, { ecosystem: 'Go', name: 'm', version: 'v0.3.7' })).toBe('v0.3.8');
  });
});

describe('CVSS', () => {
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H', 7.5],
    ['CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 7.8],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N', 5.9],
    ['CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N', 1.6],
    ['CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:C/C:H/I:H/A:H', 9.1],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
    ['CVSS:3.0/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N', 5.4],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:U/RL:O', 9.8],
  ])('%s → %d', (vector, score) => {
    expect(cvss3BaseScore(vector)).toBe(score);
  });

  it.each([
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H',
    'CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'CVSS:3.1/AV:N/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    '',
  ])('refuses %j', (vector) => {
    expect(cvss3BaseScore(vector)).toBeNull();
  });

  it.each([
    ['AV:N/AC:L/Au:N/C:P/I:P/A:P', 7.5],
    ['AV:N/AC:M/Au:N/C:N/I:P/A:N', 4.3],
    ['AV:N/AC:L/Au:N/C:C/I:C/A:C', 10],
    ['AV:L/AC:L/Au:N/C:N/I:N/A:N', 0],
    ['(AV:N/AC:L/Au:N/C:P/I:P/A:P)', 7.5],
  ])('v2 %s → %d', (vector, score) => {
    expect(cvss2BaseScore(vector)).toBe(score);
  });

  it.each([
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 9.3],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', 0],
    ['CVSS:4.0/AV:L/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 8.5],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U', 9.3],
  ])('v4 %s → %d', (vector, score) => {
    expect(cvss4BaseScore(vector)).toBe(score);
  });

  it.each([
    'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N',
    'CVSS:4.0/AV:N/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    'CVSS:4.0/AV:Q/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
  ])('v4 refuses %j', (vector) => {
    expect(cvss4BaseScore(vector)).toBeNull();
  });

  it.each([
    [10, 'critical'],
    [9, 'critical'],
    [8.9, 'high'],
    [7, 'high'],
    [6.9, 'medium'],
    [4, 'medium'],
    [3.9, 'low'],
    [0.1, 'low'],
    [0, 'info'],
  ])('%d → %s', (score, severity) => {
    expect(severityOfScore(score)).toBe(severity);
  });

  it('rates by CVSS v4, else v3, else the database rating, else CVSS v2, else medium', () => {
    const v3 = { type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H' };
    const v4 = { type: 'CVSS_V4', score: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N' };
    expect(severityOf({ id: 'a', severity: [v3], database_specific: { severity: 'LOW' } })).toEqual({
      severity: 'high',
      source: 'cvss_v3',
      cvss_score: 7.5,
      cvss_vector: v3.score,
    });
    expect(severityOf({ id: 'b', severity: [v3, v4], database_specific: { severity: 'MODERATE' } })).toEqual({
      severity: 'critical',
      source: 'cvss_v4',
      cvss_score: 9.3,
      cvss_vector: v4.score,
    });
    expect(
      severityOf({ id: 'b2', severity: [{ type: 'CVSS_V4', score: 'CVSS:4.0/AV:N' }], database_specific: { severity: 'MODERATE' } })
        .severity,
    ).toBe('medium');
    expect(severityOf({ id: 'c' }, [{ severity: [v3] }]).severity).toBe('high');
    expect(severityOf({ id: 'd', severity: [{ type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:C/I:C/A:C' }] }).severity).toBe('critical');
    expect(severityOf({ id: 'e', severity: [{ type: 'CVSS_V4', score: 'not a vector' }] })).toEqual({
      severity: 'medium',
      source: 'default',
      cvss_score: null,
      cvss_vector: null,
    });
  });
});
