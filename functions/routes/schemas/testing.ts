import * as v from 'valibot';
import { frameworks } from '../../core/testing/results';
import { jobStatuses } from '../../core/testing/test-records';
import { jobTimestamps } from './common';

export const testTotals = v.object({ passed: v.number(), failed: v.number(), skipped: v.number(), errored: v.number() });

const results = v.object({
  totals: testTotals,
  duration_ms: v.number(),
  cases: v.array(
    v.object({
      name: v.string(),
      file: v.nullable(v.string()),
      status: v.picklist(['passed', 'failed', 'skipped', 'errored']),
      duration_ms: v.nullable(v.number()),
      failure_message: v.nullable(v.string()),
    }),
  ),
  log_excerpt: v.string(),
  exit_code: v.nullable(v.number()),
  timed_out: v.boolean(),
});

export const testSuiteSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix test_')),
  object: v.literal('test_suite'),
  project_id: v.string(),
  branch: v.nullable(v.string()),
  branch_used: v.nullable(v.string()),
  commit: v.nullable(v.string()),
  paths: v.nullable(v.array(v.string())),
  framework: v.nullable(v.picklist(frameworks)),
  framework_detected: v.boolean(),
  ai_provider: v.string(),
  instructions: v.nullable(v.string()),
  status: v.picklist(jobStatuses),
  summary: v.nullable(v.string()),
  files: v.array(v.object({ path: v.string(), content: v.string(), cases: v.array(v.string()) })),
  ai_usage: v.nullable(v.object({ input_tokens: v.number(), output_tokens: v.number(), provider: v.string(), model: v.string() })),
  latest_run_id: v.nullable(v.string()),
  error: v.nullable(v.string()),
  ...jobTimestamps,
});

export const testRunSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix run_')),
  object: v.literal('test_run'),
  project_id: v.string(),
  suite_id: v.nullable(v.string()),
  branch: v.nullable(v.string()),
  commit: v.nullable(v.string()),
  framework: v.nullable(v.picklist(frameworks)),
  timeout_seconds: v.number(),
  status: v.picklist(jobStatuses),
  results: v.pipe(v.nullable(results), v.description("From the framework's machine reporter (JUnit XML or JSON).")),
  error: v.nullable(v.string()),
  ...jobTimestamps,
});

export const testObjectSchema = v.variant('object', [testSuiteSchema, testRunSchema]);
