import { type CaseStatus, type TestCaseResult, totalsOf } from '../../../core/testing/results';
import { failureText, type ParsedReport, ReportFormatError, type ReportOptions, repositoryFile } from './report-text';

/**
 * jest's `--json` output (`--outputFile`): `testResults[]` per test file (`name` is its absolute path), each with
 * `assertionResults[]` (`ancestorTitles`, `title`, `status` passed|failed|pending|todo|skipped|disabled,
 * `duration` in ms or null, `failureMessages[]`). A file that failed to run (a syntax or import error, a throwing
 * `beforeAll`/`afterAll`) has `status: "failed"` and a `message` (or `testExecError`) but no failed assertion:
 * it becomes one errored case named by the file.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

const caseStatus = (status: string | undefined): CaseStatus => {
  switch (status) {
    case 'passed':
      return 'passed';
    case 'failed':
      return 'failed';
    default:
      // pending (test.skip), todo, skipped, disabled.
      return 'skipped';
  }
};

const durationMs = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

export const parseJestJson = (json: string | unknown, options: ReportOptions = {}): ParsedReport => {
  let report: unknown = json;
  if (typeof json === 'string') {
    try {
      report = JSON.parse(json) as unknown;
    } catch (error) {
      throw new ReportFormatError(`the jest report is not JSON: ${(error as Error).message}`);
    }
  }
  if (!isObject(report) || !Array.isArray(report['testResults'])) {
    throw new ReportFormatError('the jest report has no testResults array');
  }

  const cases: TestCaseResult[] = [];
  for (const fileResult of report['testResults'] as unknown[]) {
    if (!isObject(fileResult)) continue;
    const file = repositoryFile(asString(fileResult['name']), options.rootDir);
    const assertions = Array.isArray(fileResult['assertionResults']) ? fileResult['assertionResults'].filter(isObject) : [];

    for (const assertion of assertions) {
      const status = caseStatus(asString(assertion['status']));
      const title = asString(assertion['title']) ?? asString(assertion['fullName']) ?? '';
      cases.push({
        name: [...asStrings(assertion['ancestorTitles']), title].join(' > '),
        file,
        status,
        duration_ms: durationMs(assertion['duration']),
        failure_message: status === 'failed' ? failureText(asStrings(assertion['failureMessages'])) : null,
      });
    }

    const fileFailed = fileResult['status'] === 'failed';
    const anyAssertionFailed = assertions.some((assertion) => assertion['status'] === 'failed');
    if (fileFailed && !anyAssertionFailed) {
      const execError = isObject(fileResult['testExecError']) ? asString(fileResult['testExecError']['message']) : undefined;
      const started = fileResult['startTime'];
      const ended = fileResult['endTime'];
      cases.push({
        name: file ?? 'test file',
        file,
        status: 'errored',
        duration_ms: typeof started === 'number' && typeof ended === 'number' ? durationMs(ended - started) : null,
        failure_message:
          failureText([asString(fileResult['message']) ?? asString(fileResult['failureMessage']), execError]) ??
          'the test file failed to run',
      });
    }
  }
  return { cases, totals: totalsOf(cases) };
};
