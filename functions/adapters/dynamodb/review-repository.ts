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
import * as keys from './table-keys';
import { revisionPut, type TransactItem } from './transactions';

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
        projectExistsCheck(tableName, tenant, review.project_id),
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
