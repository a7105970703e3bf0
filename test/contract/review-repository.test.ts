import {
  dynamoReviewCommentList,
  dynamoReviewList,
  dynamoReviewReader,
  dynamoReviewRepository,
} from '../../functions/adapters/dynamodb/review-repository';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { workflow as workflowKey } from '../../functions/adapters/dynamodb/table-keys';
import { newId } from '../../functions/core/ids';
import type { Review, ReviewComment, ReviewRepository } from '../../functions/core/reviews/review';
import type { Tenant } from '../../functions/core/tenancy';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { inMemoryReviewRepository } from '../unit/fakes/review-repository';
import { byCreation, sortedEvents, storedEvents, storeProject } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

/** A ReviewRepository, the way a project comes to exist beside it, and the events it has written. */
interface Subject {
  reviews: ReviewRepository;
  addProject(tenant: Tenant, projectId: string): Promise<void>;
  /** A workflow with this status (its own review is refused unless it is running). */
  setWorkflowStatus(tenant: Tenant, workflowId: string, status: 'running' | 'cancelled'): Promise<void>;
  events(tenant: Tenant): Promise<PendingEvent[]>;
}

const onTable = (reviewsOf: (table: Awaited<ReturnType<typeof dynamodb.freshTable>>) => ReviewRepository) => async (): Promise<Subject> => {
  const table = await dynamodb.freshTable();
  return {
    reviews: reviewsOf(table),
    addProject: (tenant, id) => storeProject(table, tenant, id, new Date(start - 86_400_000).toISOString()),
    async setWorkflowStatus(tenant, id, status) {
      await table.client.send(new PutCommand({ TableName: table.tableName, Item: { ...workflowKey(tenant, id), id, status } }));
    },
    events: (tenant) => storedEvents(table, tenant),
  };
};

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const fake = inMemoryReviewRepository();
      return {
        reviews: fake.repository,
        async addProject(tenant, id) {
          fake.addProject(tenant, id);
        },
        async setWorkflowStatus(tenant, id, status) {
          if (status !== 'running') fake.stopWorkflow(tenant, id);
        },
        // The fake keeps one account's events (every test here writes to one).
        events: async () => sortedEvents(fake.events),
      };
    },
  ],
  ['the DynamoDB adapter on DynamoDB Local', onTable((table) => dynamoReviewRepository(table))],
  [
    // What the read functions wire (one call each), held to the same suite as the repository.
    'the DynamoDB one-call readers on DynamoDB Local',
    onTable((table) => ({
      ...dynamoReviewRepository(table),
      ...dynamoReviewReader(table),
      ...dynamoReviewList(table),
      ...dynamoReviewCommentList(table),
    })),
  ],
];

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const otherMode: Tenant = { ...tenant, mode: 'live' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const minutes = (n: number): number => start + n * 60_000;
const projectId = newId('project', start - 86_400_000);
const otherProjectId = newId('project', start - 43_200_000);

const review = (minute: number, overrides: Partial<Review> = {}): Review => {
  const at = new Date(minutes(minute)).toISOString();
  return {
    id: newId('review', minutes(minute)),
    project_id: projectId,
    workflow_id: null,
    base: 'main',
    head: 'feature',
    base_ref: null,
    merge_base: null,
    head_commit: null,
    ai_provider: 'local',
    instructions: null,
    status: 'queued',
    summary: null,
    verdict: null,
    counts: null,
    files: [],
    files_total: 0,
    ai_usage: null,
    error: null,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    duration_ms: null,
    revision: 1,
    ...overrides,
  };
};

const comment = (of: Review, minute: number, overrides: Partial<ReviewComment> = {}): ReviewComment => ({
  id: newId('reviewComment', minutes(minute)),
  review_id: of.id,
  project_id: of.project_id,
  path: `src/file-${minute}.ts`,
  start_line: null,
  line: minute + 1,
  severity: 'medium',
  category: 'bug',
  source: 'analysis',
  rule: null,
  body: `Comment ${minute}`,
  suggestion: null,
  created_at: new Date(minutes(minute)).toISOString(),
  ...overrides,
});

const commented = (of: ReviewComment): PendingEvent => ({ type: 'review.comment.created', data: { id: of.id } });
const completed: PendingEvent = { type: 'review.completed', data: {} };

describe.each(implementations)('ReviewRepository: %s', (_name, make) => {
  let subject: Subject;
  let reviews: ReviewRepository;
  beforeEach(async () => {
    subject = await make();
    reviews = subject.reviews;
    await subject.addProject(tenant, projectId);
    await subject.addProject(tenant, otherProjectId);
  });

  it('creates a review only of a project that exists, gives it back per account and mode, and refuses a second create', async () => {
    const created = review(0);
    expect(await reviews.create(tenant, created)).toBe(true);
    expect(await reviews.get(tenant, created.id)).toEqual(created);
    expect(await reviews.get(otherMode, created.id)).toBeUndefined();
    const orphan = review(1, { project_id: newId('project', start) });
    expect(await reviews.create(tenant, orphan)).toBe(false);
    expect(await reviews.get(tenant, orphan.id)).toBeUndefined();
    await expect(reviews.create(tenant, { ...created, head: 'other' })).rejects.toThrow();
    expect(await reviews.get(tenant, created.id)).toEqual(created);
  });

  it('creates a workflow’s own review only while the workflow runs: none after a cancel', async () => {
    const running = newId('workflow', minutes(1));
    const cancelled = newId('workflow', minutes(2));
    await subject.setWorkflowStatus(tenant, running, 'running');
    await subject.setWorkflowStatus(tenant, cancelled, 'cancelled');
    const ofRunning = review(3, { workflow_id: running });
    const ofCancelled = review(4, { workflow_id: cancelled });
    expect(await reviews.create(tenant, ofRunning)).toBe(true);
    expect(await reviews.create(tenant, ofCancelled)).toBe(false);
    expect(await reviews.get(tenant, ofRunning.id)).toEqual(ofRunning);
    expect(await reviews.get(tenant, ofCancelled.id)).toBeUndefined();
    expect((await reviews.list(tenant, byCreation('desc'), {})).total).toBe(1);
  });

  it('saves only over the revision it was read at, with its events; a refused save writes none', async () => {
    const created = review(0);
    await reviews.create(tenant, created);
    const running: Review = { ...created, status: 'running', started_at: created.created_at, revision: 2 };
    expect(await reviews.save(tenant, created, running, [])).toBe(true);
    const done: Review = { ...running, status: 'completed', verdict: 'approve', summary: 'Fine', revision: 3 };
    expect(await reviews.save(tenant, created, { ...done, status: 'failed' }, [completed])).toBe(false);
    expect(await reviews.save(tenant, running, done, [completed])).toBe(true);
    expect(await reviews.get(tenant, created.id)).toEqual(done);
    expect(await subject.events(tenant)).toEqual([completed]);
  });

  it('saves under a comment count only while the review has that many comments; a refused save writes none', async () => {
    const created = review(0);
    await reviews.create(tenant, created);
    const running: Review = { ...created, status: 'running', started_at: created.created_at, revision: 2 };
    await reviews.save(tenant, created, running, []);
    const failed: Review = { ...running, status: 'failed', error: 'timed out', revision: 3 };
    // None stored: a count of 0 holds (there is no counter yet), 1 does not.
    expect(await reviews.save(tenant, running, failed, [completed], { commentCount: 1 })).toBe(false);
    const first = comment(running, 1);
    expect(await reviews.addComment(tenant, first, commented(first))).toBe(true);
    // Counted before the comment was stored: refused.
    expect(await reviews.save(tenant, running, failed, [completed], { commentCount: 0 })).toBe(false);
    expect(await reviews.get(tenant, created.id)).toEqual(running);
    expect(await subject.events(tenant)).toEqual([commented(first)]);
    expect(await reviews.save(tenant, running, failed, [completed], { commentCount: 1 })).toBe(true);
    expect(await reviews.get(tenant, created.id)).toEqual(failed);
  });

  it('lists newest first, filtered by project and status, paged, with the total', async () => {
    const records = [review(0), review(1, { project_id: otherProjectId }), review(2), review(3)];
    for (const record of records) expect(await reviews.create(tenant, record)).toBe(true);
    const failed = records[2]!;
    const failedNow: Review = { ...failed, status: 'failed', error: 'no such branch', revision: 2 };
    expect(await reviews.save(tenant, failed, failedNow, [])).toBe(true);
    const ids = (page: { items: Review[] }) => page.items.map((r) => r.id);
    const idsOf = (...indexes: number[]) => indexes.map((i) => records[i]!.id);

    const all = await reviews.list(tenant, byCreation('desc'), {});
    expect(ids(all)).toEqual(idsOf(3, 2, 1, 0));
    expect(all.total).toBe(4);
    expect(await reviews.list(otherMode, byCreation('desc'), {})).toEqual({ items: [], total: 0 });
    const ofProject = await reviews.list(tenant, byCreation('desc'), { project_id: projectId });
    expect(ids(ofProject)).toEqual(idsOf(3, 2, 0));
    expect(ofProject.total).toBe(3);
    expect(await reviews.list(tenant, byCreation('desc'), { status: 'failed' })).toEqual({ items: [failedNow], total: 1 });
    expect(ids(await reviews.list(tenant, byCreation('desc'), { project_id: projectId, status: 'queued' }))).toEqual(idsOf(3, 0));
    const second = await reviews.list(tenant, byCreation('desc', { page: 2, perPage: 2 }), {});
    expect(ids(second)).toEqual(idsOf(1, 0));
    expect(second.total).toBe(4);
  });

  it('adds a comment only while the review runs, with its event, and lists a review’s comments filtered, in either order', async () => {
    const created = review(0);
    const other = review(1);
    await reviews.create(tenant, created);
    await reviews.create(tenant, other);
    const early = comment(created, 2);
    expect(await reviews.addComment(tenant, early, commented(early))).toBe(false);

    const running: Review = { ...created, status: 'running', revision: 2 };
    await reviews.save(tenant, created, running, []);
    await reviews.save(tenant, other, { ...other, status: 'running', revision: 2 }, []);
    const written = [
      comment(created, 3, { severity: 'high' }),
      comment(created, 4),
      comment(created, 5, { severity: 'high', path: 'src/file-3.ts' }),
    ];
    for (const c of written) expect(await reviews.addComment(tenant, c, commented(c))).toBe(true);
    const elsewhere = comment(other, 6);
    expect(await reviews.addComment(tenant, elsewhere, commented(elsewhere))).toBe(true);
    expect(await subject.events(tenant)).toEqual(sortedEvents([...written, elsewhere].map(commented)));

    const ids = (page: { items: ReviewComment[] }) => page.items.map((c) => c.id);
    const asc = await reviews.listComments(tenant, created.id, byCreation('asc'), {});
    expect(asc).toEqual({ items: written, total: 3 });
    expect(ids(await reviews.listComments(tenant, created.id, byCreation('desc'), {}))).toEqual(written.map((c) => c.id).reverse());
    const high = await reviews.listComments(tenant, created.id, byCreation('asc'), { severity: 'high' });
    expect(ids(high)).toEqual([written[0]!.id, written[2]!.id]);
    expect(high.total).toBe(2);
    expect(ids(await reviews.listComments(tenant, created.id, byCreation('asc'), { path: 'src/file-3.ts' }))).toEqual([
      written[0]!.id,
      written[2]!.id,
    ]);
    const paged = await reviews.listComments(tenant, created.id, byCreation('asc', { page: 2, perPage: 2 }), {});
    expect(paged).toEqual({ items: [written[2]], total: 3 });
    // Every one at once, in the order they were made: what a failing review counts.
    expect(await reviews.allComments(tenant, created.id)).toEqual(written);
    expect(await reviews.allComments(tenant, other.id)).toEqual([elsewhere]);

    await reviews.save(tenant, running, { ...running, status: 'completed', revision: 3 }, []);
    const late = comment(created, 7);
    expect(await reviews.addComment(tenant, late, commented(late))).toBe(false);
    expect((await reviews.listComments(tenant, created.id, byCreation('asc'), {})).total).toBe(3);
  });
});
