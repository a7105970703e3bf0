import type { TestRun, TestSuite } from './test-records';

const suiteFields: (keyof TestSuite)[] = [
  'id',
  'object',
  'project_id',
  'branch',
  'branch_used',
  'commit',
  'paths',
  'framework',
  'framework_detected',
  'ai_provider',
  'instructions',
  'status',
  'summary',
  'files',
  'ai_usage',
  'latest_run_id',
  'error',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
];
const runFields: (keyof TestRun)[] = [
  'id',
  'object',
  'project_id',
  'suite_id',
  'branch',
  'commit',
  'framework',
  'timeout_seconds',
  'status',
  'results',
  'error',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
];

/** What the API shows, in the documented order, without bookkeeping. */
export const viewOfTestObject = (record: TestSuite | TestRun): Record<string, unknown> => {
  const fields: string[] = record.object === 'test_suite' ? suiteFields : runFields;
  return Object.fromEntries(fields.map((field) => [field, (record as unknown as Record<string, unknown>)[field]]));
};
