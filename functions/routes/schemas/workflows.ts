import * as v from 'valibot';
import { aiProviderNames } from '../../core/ai/provider';
import { stageNames } from '../../core/workflows/stage-data';
import { logLevels, stageStatuses, workflowStatuses } from '../../core/workflows/workflow';
import { jobTimestamps, timestamp } from './common';

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
    repository: v.pipe(
      v.nullable(v.string()),
      v.description(
        "The repository intake checked out: the project's `repository` when the workflow started. Every later stage works on it, at `commit`, even if the project's `repository` changes meanwhile. Null until intake ran.",
      ),
    ),
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
  ...jobTimestamps,
  duration_ms: v.nullable(v.number()),
});

export const logEntrySchema = v.object({
  timestamp,
  stage: v.nullable(v.picklist(stageNames)),
  level: v.picklist(logLevels),
  message: v.string(),
});
