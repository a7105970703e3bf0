import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Review, ReviewComment, ReviewRepository } from '../../core/reviews/review';
import type { Tenant } from '../../core/tenancy';
import type { TableRef } from './client';
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
import * as keys from './table-keys';
import { conditionFailedAt, revisionPut, type TransactItem, withConflictRetry } from './transactions';

/** One review by id, alone: what `GET /v1/reviews/{id}` reads. */
export const dynamoReviewReader = ({ client, tableName }: TableRef): Pick<ReviewRepository, 'get'> => ({
  async get(tenant, id) {
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.review(tenant, id), ConsistentRead: true }));
    return result.Item ? ownedRecord<Review>(result.Item) : undefined;
  },
});

/** The reviews of an account or project, alone: what `GET /v1/reviews` reads. */
export const dynamoReviewList = (table: TableRef): Pick<ReviewRepository, 'list'> => ({
  async list(tenant, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const base = filters.project_id
      ? createdRangeOn(keys.reviewsOfProject(tenant, filters.project_id), 'gsi1', keys.reviewSortKeyPrefix, 'review', query)
      : createdRangeOn(keys.reviews(tenant), null, keys.reviewSortKeyPrefix, 'review', query);
    const spec = withEqualityFilters(base, { status: filters.status });
    const total = filters.status || isDateFiltered(query) ? await countRange(table, spec) : await counterValue(table, base.partition);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, {
      project_id: filters.project_id ?? null,
      status: filters.status ?? null,
    });
    return { ...page, items: page.items.map((item) => ownedRecord<Review>(item)) };
  },
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

  /** Runs the transaction; false when the condition of item 0 failed (nothing written). */
  const transact = async (items: TransactItem[]): Promise<boolean> => {
    try {
      await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  };

  return {
    create: (tenant, review) =>
      transact([
        {
          ConditionCheck: {
            TableName: tableName,
            Key: keys.project(tenant, review.project_id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Put: { TableName: tableName, Item: reviewItem(tenant, review), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.reviews(tenant), 1),
        counterUpdate(tableName, keys.reviewsOfProject(tenant, review.project_id), 1),
      ]),

    ...dynamoReviewReader(table),

    ...dynamoReviewList(table),

    save: (tenant, previous, next, events) =>
      transact([
        revisionPut(tableName, reviewItem(tenant, next), previous.revision),
        ...(pendingEventItems(tableName, tenant, events, now()) as TransactItem[]),
      ]),

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
  };
};
