import { failReview } from '../../../functions/core/reviews/review-change';
import type { ReviewComment } from '../../../functions/core/reviews/review';
import { newReview } from '../../../functions/core/reviews/review-use-cases';
import type { Tenant } from '../../../functions/core/tenancy';
import { controlledClock } from '../fakes/clock';
import { inMemoryReviewRepository } from '../fakes/review-repository';

const tenant: Tenant = { accountId: 'acct_1', mode: 'test' };
const reviewId = 'rev_01JD2Q7A0B1C2D3E4F5G6H7J8K';

const comment = (n: number, severity: ReviewComment['severity']): ReviewComment => ({
  id: `rcm_${n}`,
  review_id: reviewId,
  project_id: 'proj_1',
  path: 'src/app.ts',
  start_line: null,
  line: n,
  severity,
  category: 'bug',
  source: 'analysis',
  rule: 'typescript/TS2322',
  body: `finding ${n}`,
  suggestion: null,
  created_at: '2026-03-01T10:00:00.000Z',
});

const running = () => {
  const store = inMemoryReviewRepository();
  const review = newReview({
    id: reviewId,
    project_id: 'proj_1',
    workflow_id: null,
    base: 'main',
    head: 'feature',
    ai_provider: 'local',
    instructions: null,
    now: '2026-03-01T10:00:00.000Z',
  });
  store.put(tenant, { ...review, status: 'running', revision: 2 });
  return store;
};

const completedEvent = { type: 'review.comment.created' as const, data: {} };

describe('failReview', () => {
  it('counts a comment the job stores between the count and the failure: the failure is stored under the count it made', async () => {
    const store = running();
    await store.repository.addComment(tenant, comment(1, 'high'), completedEvent);
    // The job is still writing when the safety net fails the review: one more comment lands after the count.
    const save = store.repository.save.bind(store.repository);
    let late = true;
    store.repository.save = async (...args) => {
      if (late) {
        late = false;
        await store.repository.addComment(tenant, comment(2, 'low'), completedEvent);
      }
      return save(...args);
    };

    const failed = await failReview({ reviews: store.repository, clock: controlledClock() }, tenant, reviewId, 'the job timed out');

    expect(failed).toMatchObject({
      status: 'failed',
      error: 'the job timed out',
      counts: { comments: 2, by_severity: { high: 1, low: 1 } },
    });
    const completed = store.events.filter((event) => event.type === 'review.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]?.data).toMatchObject({ status: 'failed', comments: 2 });
    // Failed: the job can store no more.
    expect(await store.repository.addComment(tenant, comment(3, 'low'), completedEvent)).toBe(false);
  });

  it('counts a comment stored a moment ago at the first try, though a list of the comments does not show it yet', async () => {
    const store = running();
    await store.repository.addComment(tenant, comment(1, 'high'), completedEvent);
    await store.repository.addComment(tenant, comment(2, 'low'), completedEvent);
    // DynamoDB's lists are eventually consistent: the newest comment is not listed yet.
    const list = store.repository.listComments.bind(store.repository);
    store.repository.listComments = async (...args) => {
      const page = await list(...args);
      return { ...page, items: page.items.filter((item) => item.id !== 'rcm_2'), total: page.total - 1 };
    };
    const save = store.repository.save.bind(store.repository);
    let saves = 0;
    store.repository.save = async (...args) => {
      saves += 1;
      return save(...args);
    };

    const failed = await failReview({ reviews: store.repository, clock: controlledClock() }, tenant, reviewId, 'the job timed out');

    expect(failed).toMatchObject({ status: 'failed', counts: { comments: 2, by_severity: { high: 1, low: 1 } } });
    expect(saves).toBe(1);
  });

  it('leaves a finished review as it is', async () => {
    const store = running();
    const review = await store.repository.get(tenant, reviewId);
    store.put(tenant, { ...review!, status: 'completed' });
    const answered = await failReview({ reviews: store.repository, clock: controlledClock() }, tenant, reviewId, 'late');
    expect(answered).toMatchObject({ status: 'completed' });
    expect(store.events).toEqual([]);
  });
});
