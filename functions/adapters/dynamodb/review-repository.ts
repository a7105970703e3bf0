import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Review, ReviewComment, ReviewRepository } from '../../core/reviews/review';
import type { Tenant } from '../../core/tenancy';
import { listOfAccountOrProject } from './account-or-project-list';
import type { TableRef } from './client';
import { transactUnlessFirstConditionFails } from './conditional-transaction';
import { pendingEventItems } from './event-repository';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdRangeOn,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  withEqualityFilters,
} from './list-page';
import { entityTypes, ownedRecord } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectExistsCheck } from './project-guards';
import { workflowRunningCheck } from './workflow-guards';
import * as keys from './table-keys';
import { conditionFailedAt, revisionPut, type TransactItem, withConflictRetry } from './transactions';

/** One review by id, alone: what `GET /v1/reviews/{id}` reads. */
export const dynamoReviewReader = (table: TableRef): Pick<ReviewRepository, 'get'> => ({
  get: ownedRecordById<Review>(table, keys.review),
});

/** The reviews of an account or project, alone: what `GET /v1/reviews` reads. */
export const dynamoReviewList = (table: TableRef): Pick<ReviewRepository, 'list'> => ({
  list: listOfAccountOrProject<Review>(table, {
    ofAccount: keys.reviews,
    ofProject: keys.reviewsOfProject,
    sortKeyPrefix: keys.reviewSortKeyPrefix,
    idKind: 'review',
  }),
});

/** A review's comments, alone: what `GET /v1/reviews/{id}/comments` reads beside the review. */
export const dynamoReviewCommentList = (table: TableRef): Pick<ReviewRepository, 'listComments'> => ({
  async listComments(tenant, reviewId, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const base = createdRangeOn(keys.reviewComments(tenant, reviewId), null, keys.reviewCommentSortKeyPrefix, 'reviewComment', query);
    const spec = withEqualityFilters(base, { severity: filters.severity, path: filters.path });
    const total =
      filters.severity || filters.path || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, base.partition);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
      severity: filters.severity ?? null,
      path: filters.path ?? null,
    });
    return { ...page, items: page.items.map((item) => ownedRecord<ReviewComment>(item)) };
  },
});

/** The review's comment counter holds `count` (no counter item: none stored yet). */
const commentCountCheck = (tableName: string, tenant: Tenant, reviewId: string, count: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.counter(keys.reviewComments(tenant, reviewId)),
    ConditionExpression: count === 0 ? 'attribute_not_exists(#count) OR #count = :count' : '#count = :count',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':count': count },
  },
});

export const dynamoReviewRepository = (table: TableRef, now: () => number = Date.now): ReviewRepository => {
  const { client, tableName } = table;
  const reviewItem = (tenant: Tenant, review: Review) => ({
    ...keys.review(tenant, review.id),
    ...keys.reviewIndexes(tenant, review.project_id, review.id),
    entity: entityTypes.review,
    account_id: tenant.accountId,
    mode: tenant.mode,
    ...review,
  });
  const commentItem = (tenant: Tenant, comment: ReviewComment) => ({
    ...keys.reviewComment(tenant, comment.review_id, comment.id),
    entity: entityTypes.reviewComment,
    account_id: tenant.accountId,
    mode: tenant.mode,
    ...comment,
  });

  const transact = (items: TransactItem[]) => transactUnlessFirstConditionFails(client, items);

  return {
    create: (tenant, review) =>
      transact([
        // A workflow's own review only while the workflow runs: none is started after a cancel.
        ...(review.workflow_id === null ? [] : [workflowRunningCheck(tableName, tenant, review.workflow_id)]),
        projectExistsCheck(tableName, tenant, review.project_id),
        { Put: { TableName: tableName, Item: reviewItem(tenant, review), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.reviews(tenant), 1),
        counterUpdate(tableName, keys.reviewsOfProject(tenant, review.project_id), 1),
      ]),

    ...dynamoReviewReader(table),

    ...dynamoReviewList(table),

    async save(tenant, previous, next, events, options) {
      const eventItems = pendingEventItems(tableName, tenant, events, now()) as TransactItem[];
      const put = revisionPut(tableName, reviewItem(tenant, next), previous.revision);
      if (options?.commentCount === undefined) return transact([put, ...eventItems]);
      try {
        await withConflictRetry(() =>
          client.send(
            new TransactWriteCommand({
              TransactItems: [put, commentCountCheck(tableName, tenant, previous.id, options.commentCount as number), ...eventItems],
            }),
          ),
        );
        return true;
      } catch (error) {
        // Changed meanwhile, or a comment stored since they were counted.
        if (conditionFailedAt(error, 0) || conditionFailedAt(error, 1)) return false;
        throw error;
      }
    },

    addComment: (tenant, comment, event) =>
      transact([
        {
          ConditionCheck: {
            TableName: tableName,
            Key: keys.review(tenant, comment.review_id),
            ConditionExpression: '#status = :running',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':running': 'running' },
          },
        },
        { Put: { TableName: tableName, Item: commentItem(tenant, comment), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.reviewComments(tenant, comment.review_id), 1),
        ...(pendingEventItems(tableName, tenant, [event], now()) as TransactItem[]),
      ]),

    ...dynamoReviewCommentList(table),

    async allComments(tenant, reviewId) {
      const comments: ReviewComment[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :comment)',
            ExpressionAttributeValues: { ':pk': keys.reviewComments(tenant, reviewId), ':comment': keys.reviewCommentSortKeyPrefix },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        comments.push(...(page.Items ?? []).map((item) => ownedRecord<ReviewComment>(item)));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      return comments;
    },
  };
};
