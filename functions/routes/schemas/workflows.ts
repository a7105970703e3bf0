import * as v from 'valibot';
import { aiProviderNames } from '../../core/ai/provider';
import { stageNames } from '../../core/workflows/stage-data';
import { logLevels, stageStatuses, workflowSortFields, workflowStatuses } from '../../core/workflows/workflow';
import { lengthIn, listQuery, nameText, picklistParam, timestamp } from './common';

const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const prompt = v.pipe(
  v.string('must be a string'),
  lengthIn(1, 20_000, 'must be 1 to 20000 characters'),
  v.regex(/\S/, 'must not be blank'),
  v.check((text) => !controlCharacters.test(text), 'must not contain control characters other than tab and line breaks'),
  v.description('The instruction for the workflow, 1 to 20,000 characters.'),
);

const name = nameText(100, "1 to 100 characters (Unicode code points); defaults to the prompt's first line.");

const branch = v.pipe(
  v.string('must be a string'),
  lengthIn(1, 255, 'must be 1 to 255 characters'),
  // git check-ref-format's rules, in short.
  v.regex(/^(?!\/|.*\/\/|.*\.\.|.*@\{|.*\/$|.*\.lock$|.*\.$)[^\s~^:?*[\\\u0000-\u001f\u007f]+$/, 'must be a valid git branch name'),
  v.description("Branch to work from; the repository's default branch when absent."),
);

const config = v.strictObject({
  ai_provider: v.optional(
    v.pipe(
      v.picklist(aiProviderNames, `must be one of ${aiProviderNames.join(', ')} (and configured in this deployment)`),
      v.description('One of the AI providers this deployment configured; the first configured when absent (`local` in the local runtime).'),
    ),
  ),
  auto_deploy: v.optional(v.boolean('must be true or false'), false),
  branch: v.optional(branch),
  max_iterations: v.optional(
    v.pipe(
      v.number('must be a whole number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be 1 to 5'),
      v.maxValue(5, 'must be 1 to 5'),
      v.description('Fix rounds allowed after a failed verification, 1 to 5; default 2.'),
    ),
  ),
  review: v.optional(
    v.pipe(
      v.boolean('must be true or false'),
      v.description(
        "Verify reviews the build's change beside its checks (a code review, `rev_…`); its comments of severity high or worse feed iterate. Default true.",
      ),
    ),
  ),
});

export const createWorkflowBody = v.strictObject({
  project_id: v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'is required'),
    v.description('A project of your account and mode (proj_…).'),
  ),
  prompt,
  name: v.optional(name),
  config: v.optional(config),
});

const artifact = { location: v.string(), sha256: v.string(), size: v.number() };

export const workflowSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix wf_')),
  project_id: v.string(),
  name: v.string(),
  status: v.picklist(workflowStatuses),
  stages: v.pipe(v.array(v.picklist(stageNames)), v.description('Stage names in order.')),
  prompt: v.string(),
  config: v.object({
    ai_provider: v.picklist(aiProviderNames),
    auto_deploy: v.boolean(),
    branch: v.nullable(v.string()),
    max_iterations: v.number(),
    review: v.boolean(),
  }),
  stage_statuses: v.pipe(v.record(v.picklist(stageNames), v.picklist(stageStatuses)), v.description('Stage name → status.')),
  stage_timings: v.record(
    v.picklist(stageNames),
    v.object({
      started_at: v.nullable(timestamp),
      completed_at: v.nullable(timestamp),
      duration_ms: v.nullable(v.number()),
      runs: v.number(),
    }),
  ),
  outputs: v.object({
    docker_image: v.pipe(v.nullable(v.string()), v.description('The built image, or null: only what really exists.')),
    deployment_url: v.pipe(v.nullable(v.string()), v.description("The deployment's URL, or null.")),
    commit: v.pipe(v.nullable(v.string()), v.description('The commit intake checked out.')),
    branch: v.nullable(v.string()),
    plan: v.nullable(v.object({ summary: v.string(), steps: v.array(v.string()) })),
    diff: v.nullable(v.object({ ...artifact, files_changed: v.number(), additions: v.number(), deletions: v.number() })),
    verification: v.nullable(v.object({ ...artifact, passed: v.boolean(), problems: v.number() })),
    provenance: v.pipe(
      v.nullable(v.object({ ...artifact, key_id: v.string(), predicate_type: v.string() })),
      v.description('Signed in-toto statement (DSSE envelope).'),
    ),
    bundle: v.nullable(v.object(artifact)),
    pushed_branch: v.nullable(v.string()),
    iterations: v.number(),
    deployment_id: v.pipe(v.nullable(v.string()), v.description('The deployment auto_deploy started.')),
    review: v.pipe(
      v.nullable(
        v.object({ id: v.string(), status: v.string(), verdict: v.nullable(v.string()), comments: v.number(), blocking: v.number() }),
      ),
      v.description(
        'The code review of the change verify made last (`GET /v1/reviews/{id}`): `blocking` counts its AI comments of severity high or worse, which fail verification and feed iterate. Null when config.review is false.',
      ),
    ),
  }),
  ai_usage: v.object({
    input_tokens: v.number(),
    output_tokens: v.number(),
    total_tokens: v.number(),
    provider: v.nullable(v.string()),
    model: v.nullable(v.string()),
    calls: v.number(),
  }),
  error: v.nullable(v.object({ stage: v.nullable(v.picklist(stageNames)), message: v.string() })),
  created_at: timestamp,
  updated_at: timestamp,
  started_at: v.nullable(timestamp),
  completed_at: v.nullable(timestamp),
  duration_ms: v.nullable(v.number()),
});

export const listWorkflowsQuery = listQuery(workflowSortFields, {
  project_id: v.optional(v.pipe(v.string(), v.description("Only this project's workflows."))),
  status: v.optional(picklistParam(workflowStatuses, 'Only workflows in this status.')),
});

export const logEntrySchema = v.object({
  timestamp,
  stage: v.nullable(v.picklist(stageNames)),
  level: v.picklist(logLevels),
  message: v.string(),
});

export const listLogsQuery = listQuery(['timestamp'] as const, {
  stage: v.optional(picklistParam(stageNames, "Only this stage's lines.")),
  level: v.optional(picklistParam(logLevels, 'Only lines of this level.')),
});
