import * as v from 'valibot';
import { frameworks } from '../../core/testing/results';
import { jobStatuses } from '../../core/testing/test-records';
import { timestamp } from './common';

const branch = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must be 1 to 255 characters'),
  v.maxLength(255, 'must be 1 to 255 characters'),
  v.regex(/^(?!\/|.*\/\/|.*\.\.|.*@\{|.*\/$|.*\.lock$|.*\.$)[^\s~^:?*[\\\u0000-\u001f\u007f]+$/, 'must be a valid git branch name'),
  v.description("The repository's default branch when absent."),
);

const repositoryPath = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(1024, 'must be at most 1024 characters'),
  v.check((path) => !path.startsWith('/') && !path.split('/').includes('..'), 'must be a path inside the repository'),
);

export const generateTestsBody = v.strictObject({
  project_id: v.pipe(v.string('must be a string'), v.minLength(1, 'is required')),
  branch: v.optional(branch),
  paths: v.optional(
    v.pipe(
      v.array(repositoryPath, 'must be an array of paths'),
      v.minLength(1, 'must name at least one file or folder'),
      v.maxLength(50, 'must name at most 50 paths'),
      v.description('Files or folders to cover; the whole repository when absent.'),
    ),
  ),
  framework: v.optional(
    v.pipe(v.picklist(frameworks, `must be one of ${frameworks.join(', ')}`), v.description('Detected from the repository when absent.')),
  ),
  ai_provider: v.optional(
    v.pipe(v.string('must be a string'), v.description('One of the configured providers; the first configured when absent.')),
  ),
  instructions: v.optional(v.pipe(v.string('must be a string'), v.maxLength(5000, 'must be at most 5000 characters'))),
});

export const runTestsBody = v.strictObject({
  test_id: v.optional(v.pipe(v.string('must be a string'), v.description('A completed generated suite (test_…); or give project_id.'))),
  project_id: v.optional(v.pipe(v.string('must be a string'), v.description("Run the repository's own tests; or give test_id."))),
  branch: v.optional(branch),
  timeout_seconds: v.optional(
    v.pipe(
      v.number('must be a whole number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be 1 to 900'),
      v.maxValue(900, 'must be 1 to 900'),
      v.description('Default 300, at most 900.'),
    ),
  ),
});

const totals = v.object({ passed: v.number(), failed: v.number(), skipped: v.number(), errored: v.number() });

const results = v.object({
  totals,
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
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
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
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
});

export const testObjectSchema = v.variant('object', [testSuiteSchema, testRunSchema]);
