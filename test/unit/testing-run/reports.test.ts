import { readFileSync } from 'node:fs';
import { parseJestJson } from '../../../functions/adapters/testing/reports/jest-json';
import { parseJUnitXml } from '../../../functions/adapters/testing/reports/junit-xml';
import { ReportFormatError } from '../../../functions/adapters/testing/reports/report-text';
import { maxFailureMessageChars, type TestCaseResult } from '../../../functions/core/testing/results';

/**
 * Reports captured from the real frameworks on the fixtures in ./fixtures.ts (plus a file that fails to load),
 * run in /tmp/sample-repo: jest 30 `--json`, node 20.20 `--test-reporter=junit`, pytest 9 `--junitxml` (xunit1).
 * vitest is not installed here: vitest.xml follows vitest 3's junit reporter output (per-file suites,
 * `describe > test` names, a file that failed to import as a case named by the file).
 */
const sample = (name: string): string => readFileSync(new URL(`./samples/${name}`, import.meta.url), 'utf8');
const rootDir = '/tmp/sample-repo';

const byName = (cases: TestCaseResult[], name: string): TestCaseResult => {
  const found = cases.find((c) => c.name === name);
  if (!found) throw new Error(`no case ${name} in ${cases.map((c) => c.name).join(', ')}`);
  return found;
};

describe('parseJestJson', () => {
  it('reads every assertion, with todo and skip as skipped and a file that failed to run as one errored case', () => {
    const { cases, totals } = parseJestJson(sample('jest.json'), { rootDir });

    expect(totals).toEqual({ passed: 3, failed: 2, skipped: 2, errored: 1 });
    expect(cases.map((c) => [c.name, c.status])).toEqual([
      ['math > adds', 'passed'],
      ['math > multiplies', 'passed'],
      ['math > adds wrongly', 'failed'],
      ['math > skipped for now', 'skipped'],
      ['math > divides', 'skipped'],
      ['top level passes', 'passed'],
      ['top level throws', 'failed'],
      ['__tests__/broken.test.js', 'errored'],
    ]);
    expect(new Set(cases.map((c) => c.file))).toEqual(new Set(['__tests__/math.test.js', '__tests__/broken.test.js']));
    expect(byName(cases, 'math > adds wrongly').failure_message).toContain('Expected: 5');
    expect(byName(cases, 'top level throws').failure_message).toContain('kaboom');
    expect(byName(cases, '__tests__/broken.test.js').failure_message).toContain("Cannot find module './missing-module'");
    expect(byName(cases, 'math > adds').duration_ms).toEqual(expect.any(Number));
    expect(byName(cases, 'math > divides').duration_ms).toBeNull();
  });

  it("drops colours and the framework's own stack frames from messages, and caps them", () => {
    const { cases } = parseJestJson(
      {
        testResults: [
          {
            name: '/repo/a.test.js',
            status: 'failed',
            assertionResults: [
              {
                ancestorTitles: [],
                title: 'long',
                status: 'failed',
                duration: 3,
                failureMessages: [
                  `\u001b[31mError: ${'x'.repeat(5000)}\u001b[39m\n    at Object.<anonymous> (/repo/a.test.js:1:1)\n    at run (/repo/node_modules/jest-circus/build/x.js:1:1)`,
                ],
              },
              {
                ancestorTitles: [],
                title: 'short',
                status: 'failed',
                failureMessages: [
                  '\u001b[31mError: nope\u001b[39m\n    at Object.<anonymous> (/repo/a.test.js:2:1)\n    at new Promise (<anonymous>)',
                ],
              },
            ],
          },
        ],
      },
      { rootDir: '/repo' },
    );
    const [long, short] = cases;
    expect(long?.failure_message?.length).toBe(maxFailureMessageChars);
    expect(short?.failure_message).toBe('Error: nope\n    at Object.<anonymous> (/repo/a.test.js:2:1)');
    expect(short?.file).toBe('a.test.js');
  });

  it('rejects what is not a jest report', () => {
    expect(() => parseJestJson('not json')).toThrow(ReportFormatError);
    expect(() => parseJestJson('{"numTotalTests": 0}')).toThrow(ReportFormatError);
    expect(parseJestJson('{"testResults": []}').cases).toEqual([]);
  });
});

describe('parseJUnitXml', () => {
  it('reads node:test: both kinds of skip as skipped, describe names as prefixes, a file that failed to load as errored', () => {
    const { cases, totals } = parseJUnitXml(sample('node-test.xml'), { rootDir });

    expect(totals).toEqual({ passed: 2, failed: 1, skipped: 2, errored: 1 });
    expect(cases.map((c) => [c.name, c.status, c.file])).toEqual([
      ['test/broken.test.mjs', 'errored', 'test/broken.test.mjs'],
      ['adds', 'passed', null],
      ['adds wrongly', 'failed', null],
      ['skipped by option', 'skipped', null],
      ['skipped at run time', 'skipped', null],
      ['nested > multiplies', 'passed', null],
    ]);
    const failure = byName(cases, 'adds wrongly').failure_message ?? '';
    expect(failure).toContain('4 !== 5');
    expect(failure).toContain('/tmp/sample-repo/test/math.test.js:4:37');
    expect(failure).not.toContain('node:internal');
    expect(byName(cases, 'adds').duration_ms).toBe(1);
  });

  it('reads pytest (xunit1): error as errored (a fixture, a collection failure), xfail and skip as skipped, files from the attribute', () => {
    const { cases, totals } = parseJUnitXml(sample('pytest.xml'), { rootDir });

    expect(totals).toEqual({ passed: 2, failed: 1, skipped: 1, errored: 2 });
    expect(cases.map((c) => [c.name, c.status, c.file])).toEqual([
      ['tests.test_broken', 'errored', 'tests/test_broken.py'],
      ['test_adds', 'passed', 'tests/test_math.py'],
      ['test_adds_wrongly', 'failed', 'tests/test_math.py'],
      ['test_skipped', 'skipped', 'tests/test_math.py'],
      ['test_needs_database', 'errored', 'tests/test_math.py'],
      ['TestMultiply > test_multiplies', 'passed', 'tests/test_math.py'],
    ]);
    expect(byName(cases, 'test_adds_wrongly').failure_message).toMatch(/^AssertionError: two and two\nassert \(2 \+ 2\) == 5\n/);
    expect(byName(cases, 'test_needs_database').failure_message).toContain('no database');
    expect(byName(cases, 'tests.test_broken').failure_message).toContain("No module named 'nonexistent_module'");
  });

  it('reads pytest without a file attribute (xunit2) from the classname', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" tests="2">
      <testcase classname="pkg.tests.test_io.TestRead" name="test_reads" time="0.012"/>
      <testcase classname="test_top" name="test_one" time="0.001"><skipped type="pytest.xfail" message=""/></testcase>
    </testsuite></testsuites>`;
    expect(parseJUnitXml(xml).cases).toEqual([
      { name: 'TestRead > test_reads', file: 'pkg/tests/test_io.py', status: 'passed', duration_ms: 12, failure_message: null },
      { name: 'test_one', file: 'test_top.py', status: 'skipped', duration_ms: 1, failure_message: null },
    ]);
  });

  it('reads vitest: file suites, a file that failed to import as errored, a failing hook as failed', () => {
    const { cases, totals } = parseJUnitXml(sample('vitest.xml'), { rootDir });

    expect(totals).toEqual({ passed: 2, failed: 2, skipped: 2, errored: 1 });
    expect(cases.map((c) => [c.name, c.status, c.file])).toEqual([
      ['math > adds', 'passed', 'src/math.test.ts'],
      ['math > adds wrongly', 'failed', 'src/math.test.ts'],
      ['math > skipped for now', 'skipped', 'src/math.test.ts'],
      ['math > divides', 'skipped', 'src/math.test.ts'],
      ['top level passes', 'passed', 'src/math.test.ts'],
      ['needs a server', 'failed', 'src/setup.test.ts'],
      ['src/broken.test.ts', 'errored', 'src/broken.test.ts'],
    ]);
    expect(byName(cases, 'math > adds wrongly').failure_message).toMatch(/^AssertionError: expected 4 to be 5/);
    expect(byName(cases, 'src/broken.test.ts').failure_message).toContain("Cannot find module './missing'");
    expect(byName(cases, 'math > adds wrongly').duration_ms).toBe(4);
  });

  it('takes the file attribute of a case or its suite, made relative to the root', () => {
    const xml = `<testsuite name="suite" file="/work/repo/spec/a.spec.js">
      <testcase name="one" classname="suite" time="bad"/>
      <testcase name="two" classname="suite" file="/elsewhere/b.spec.js"><failure>plain body</failure></testcase>
    </testsuite>`;
    expect(parseJUnitXml(xml, { rootDir: '/work/repo' }).cases).toEqual([
      { name: 'one', file: 'spec/a.spec.js', status: 'passed', duration_ms: null, failure_message: null },
      { name: 'two', file: '/elsewhere/b.spec.js', status: 'failed', duration_ms: null, failure_message: 'plain body' },
    ]);
  });

  it('rejects what is not a JUnit report', () => {
    expect(() => parseJUnitXml('')).toThrow(ReportFormatError);
    expect(() => parseJUnitXml('<testsuites><testcase name="cut off"')).toThrow(ReportFormatError);
    expect(() => parseJUnitXml('<html><body/></html>')).toThrow(ReportFormatError);
    expect(() => parseJUnitXml('<!DOCTYPE x [<!ENTITY a "aaaa">]><testsuites/>')).toThrow(ReportFormatError);
    expect(parseJUnitXml('<testsuites/>').cases).toEqual([]);
  });
});
