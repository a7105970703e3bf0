import * as v from 'valibot';
import {
  commentCategories,
  commentSources,
  fileChanges,
  reviewFileStatuses,
  reviewStatuses,
  reviewVerdicts,
} from '../../core/reviews/review';
import { severities } from '../../core/security/scanner';
import { jobTimestamps, timestamp } from './common';

export const severityCounts = v.object(
  Object.fromEntries(severities.map((severity) => [severity, v.number()])) as Record<
    (typeof severities)[number],
    v.NumberSchema<undefined>
  >,
);

export const droppedComments = v.pipe(
  v.object({ outside_diff: v.number(), duplicate: v.number(), over_limit: v.number() }),
  v.description('Comments not kept, and why: on a line the diff does not show, repeated, or past the cap.'),
);

export const reviewSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix rev_')),
  project_id: v.string(),
  workflow_id: v.pipe(v.nullable(v.string()), v.description('The workflow whose verify stage made this review, or null.')),
  base: v.pipe(v.nullable(v.string()), v.description("As asked; null means the repository's default branch.")),
  head: v.pipe(v.nullable(v.string()), v.description("As asked; null for a workflow's review (its change is not a commit).")),
  base_ref: v.pipe(v.nullable(v.string()), v.description('What base resolved to.')),
  merge_base: v.pipe(v.nullable(v.string()), v.description('The commit the diff is taken from: the merge base of base and head.')),
  head_commit: v.nullable(v.string()),
  ai_provider: v.string(),
  instructions: v.nullable(v.string()),
  status: v.picklist(reviewStatuses),
  summary: v.nullable(v.string()),
  verdict: v.pipe(v.nullable(v.picklist(reviewVerdicts)), v.description('Set when completed.')),
  counts: v.nullable(
    v.object({
      comments: v.number(),
      by_severity: severityCounts,
      by_source: v.object({ analysis: v.number(), ai: v.number() }),
      dropped: droppedComments,
      suggestions_dropped: v.pipe(v.number(), v.description('Suggestions removed because they did not apply cleanly.')),
    }),
  ),
  files: v.pipe(
    v.array(
      v.object({
        path: v.string(),
        previous_path: v.nullable(v.string()),
        change: v.picklist(fileChanges),
        additions: v.number(),
        deletions: v.number(),
        status: v.picklist(reviewFileStatuses),
        reason: v.nullable(v.string()),
      }),
    ),
    v.description(
      'Every file of the diff (the first 1,000): reviewed, skipped (binary or generated) or not reviewed (past a limit), with the reason.',
    ),
  ),
  files_total: v.number(),
  ai_usage: v.nullable(
    v.object({ input_tokens: v.number(), output_tokens: v.number(), provider: v.string(), model: v.string(), requests: v.number() }),
  ),
  error: v.nullable(v.string()),
  ...jobTimestamps,
  duration_ms: v.nullable(v.number()),
});

export const reviewCommentSchema = v.object({
  id: v.pipe(v.string(), v.description('Prefix rvc_')),
  review_id: v.string(),
  project_id: v.string(),
  path: v.string(),
  start_line: v.pipe(v.nullable(v.number()), v.description('First head-side line of a range; null for a comment on one line.')),
  line: v.pipe(v.number(), v.description('The (last) head-side line of the diff the comment is on.')),
  severity: v.picklist(severities),
  category: v.picklist(commentCategories),
  source: v.pipe(v.picklist(commentSources), v.description('`analysis`: the type check or a scanner; `ai`: the AI provider.')),
  rule: v.pipe(v.nullable(v.string()), v.description('The analysis rule that reported it; null for the AI.')),
  body: v.string(),
  suggestion: v.pipe(
    v.nullable(v.object({ replacement: v.string(), patch: v.string() })),
    v.description('The new text of the commented lines, and the same as a unified diff checked to apply cleanly.'),
  ),
  created_at: timestamp,
});
