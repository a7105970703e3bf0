import { isoTime } from '../../../functions/core/clock';
import { newId } from '../../../functions/core/ids';
import type { Project } from '../../../functions/core/projects/project';
import type { Tenant } from '../../../functions/core/tenancy';
import type { TestJobRef, TestRun, TestSuite } from '../../../functions/core/testing/test-records';
import { startOfTests } from './clock';

export const testTenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
export const testProjectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

export const testProject: Project = {
  id: testProjectId,
  name: 'shop',
  repository: 'https://git.example.test/acme/shop.git',
  description: 'The shop',
  created_at: isoTime(startOfTests - 86_400_000),
  updated_at: isoTime(startOfTests - 86_400_000),
};

export const jobRefOf = (record: { id: string }, of: Tenant = testTenant): TestJobRef => ({
  account_id: of.accountId,
  mode: of.mode,
  id: record.id,
});

/** A queued suite created an hour before the tests' start, unless overridden. */
export const suiteRecord = (overrides: Partial<TestSuite> = {}, createdAtMs = startOfTests - 3_600_000): TestSuite => {
  const at = isoTime(createdAtMs);
  return {
    id: newId('testSuite', createdAtMs),
    object: 'test_suite',
    project_id: testProjectId,
    branch: null,
    branch_used: null,
    commit: null,
    paths: null,
    framework: null,
    framework_detected: false,
    ai_provider: 'anthropic',
    instructions: null,
    status: 'queued',
    summary: null,
    files: [],
    ai_usage: null,
    latest_run_id: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    revision: 1,
    ...overrides,
  };
};

/** A completed suite of one jest file, generated from `develop` at a fixed commit. */
export const completedSuiteRecord = (overrides: Partial<TestSuite> = {}): TestSuite =>
  suiteRecord({
    status: 'completed',
    branch: 'develop',
    branch_used: 'develop',
    commit: 'abc1230000000000000000000000000000000000',
    framework: 'jest',
    framework_detected: true,
    summary: 'Covers add',
    files: [
      { path: '__tests__/add.generated.test.js', content: "test('adds', () => expect(1 + 2).toBe(3));\n", cases: ['adds'] },
      { path: 'src/lib/mul.generated.test.js', content: "test('multiplies', () => expect(2 * 3).toBe(6));\n", cases: ['multiplies'] },
    ],
    ai_usage: { input_tokens: 10, output_tokens: 20, provider: 'anthropic', model: 'anthropic-model-1' },
    started_at: isoTime(startOfTests - 3_500_000),
    completed_at: isoTime(startOfTests - 3_400_000),
    revision: 3,
    ...overrides,
  });

/** A queued run of the project's own tests created a minute before the tests' start, unless overridden. */
export const runRecord = (overrides: Partial<TestRun> = {}, createdAtMs = startOfTests - 60_000): TestRun => {
  const at = isoTime(createdAtMs);
  return {
    id: newId('testRun', createdAtMs),
    object: 'test_run',
    project_id: testProjectId,
    suite_id: null,
    branch: null,
    commit: null,
    framework: null,
    timeout_seconds: 300,
    status: 'queued',
    results: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    revision: 1,
    ...overrides,
  };
};
