import { renderReview } from '../../../bin/api/reviews';
import type { Review, ReviewComment } from '../../../functions/core/reviews/review';
import { newReview } from '../../../functions/core/reviews/review-use-cases';
import { viewOfComment, viewOfReview } from '../../../functions/core/reviews/views';

const review: Review = {
  ...newReview({
    id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
    project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
    workflow_id: null,
    base: null,
    head: 'feature',
    ai_provider: 'local',
    instructions: null,
    now: '2026-11-21T10:00:00.000Z',
  }),
  status: 'completed',
  verdict: 'request_changes',
  base_ref: 'main',
  merge_base: 'a'.repeat(40),
  head_commit: 'b'.repeat(40),
  summary: 'Two problems.',
  files: [
    { path: 'src/a.ts', previous_path: null, change: 'modified', additions: 2, deletions: 1, status: 'reviewed', reason: null },
    {
      path: 'yarn.lock',
      previous_path: null,
      change: 'modified',
      additions: 9,
      deletions: 9,
      status: 'skipped',
      reason: 'generated: a lockfile',
    },
  ],
  counts: {
    comments: 2,
    by_severity: { critical: 0, high: 1, medium: 0, low: 1, info: 0 },
    by_source: { analysis: 1, ai: 1 },
    dropped: { outside_diff: 1, duplicate: 0, over_limit: 0 },
    suggestions_dropped: 0,
  },
};

const comment = (overrides: Partial<ReviewComment>): ReviewComment =>
  viewOfComment({
    id: 'rvc_01JD2QF6M0N2P4R6S8T0V2W4X6',
    review_id: review.id,
    project_id: review.project_id,
    path: 'src/a.ts',
    start_line: null,
    line: 3,
    severity: 'high',
    category: 'bug',
    source: 'analysis',
    rule: 'typescript/TS2322',
    body: 'Wrong type.',
    suggestion: null,
    created_at: '2026-11-21T10:00:01.000Z',
    ...overrides,
  });

describe('reviews show', () => {
  it('prints the verdict, what was set aside, then the comments by file with their suggested patches', () => {
    const text = renderReview(viewOfReview(review), [
      comment({}),
      comment({
        start_line: 5,
        line: 6,
        severity: 'low',
        category: 'style',
        source: 'ai',
        rule: null,
        body: 'Shorter.',
        suggestion: { replacement: 'x', patch: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -5,2 +5,1 @@\n-a\n-b\n+x\n' },
      }),
    ]);
    expect(text.split('\n')).toEqual([
      'rev_01JD2QD4J8K0M2N4P6R8S0T2V4  completed: request_changes',
      `feature into main (merge base ${'a'.repeat(12)}, head ${'b'.repeat(12)})`,
      '',
      'Two problems.',
      '',
      'Skipped or not reviewed:',
      '  yarn.lock  skipped: generated: a lockfile',
      '',
      '2 comment(s); dropped: 1 outside the diff, 0 duplicate, 0 over the limit',
      '',
      'src/a.ts',
      '  3        high     bug  typescript/TS2322',
      '           Wrong type.',
      '  5-6      low      style',
      '           Shorter.',
      '           | --- a/src/a.ts',
      '           | +++ b/src/a.ts',
      '           | @@ -5,2 +5,1 @@',
      '           | -a',
      '           | -b',
      '           | +x',
    ]);
  });
});
