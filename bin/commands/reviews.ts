/**
 * `npm run cli -- reviews show <rev_id> [--account <acct_id>] [--mode live|test] [--stack <name>] [--json]`
 *
 * Prints a code review as a reviewer reads one: the verdict and summary, what was skipped or not
 * reviewed and why, then the comments file by file, line by line, with their suggested patches.
 * It reads the table (the local runtime's, or a deployed stack's), as the other commands do.
 */
import { parseArgs } from 'node:util';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { dynamoReviewRepository } from '../../functions/adapters/dynamodb/review-repository';
import type { Review, ReviewComment } from '../../functions/core/reviews/review';
import { viewOfComment, viewOfReview } from '../../functions/core/reviews/views';
import type { Mode, Tenant } from '../../functions/core/tenancy';
import type { CommandIo } from './verify-provenance';

export const reviewsUsage = `npm run cli -- reviews show <rev_id> [options]

  --account <acct_id>   the review's account (default: the only account there is)
  --mode live|test      the review's mode (default: live, then test)
  --stack <name>        read a deployed stack's table instead of the running local runtime's
  --json                print the review and its comments as one JSON object`;

class UsageError extends Error {}

const allComments = async (table: TableRef, tenant: Tenant, reviewId: string): Promise<ReviewComment[]> => {
  const reviews = dynamoReviewRepository(table);
  const comments: ReviewComment[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page += 1) {
    const result = await reviews.listComments(tenant, reviewId, { page, perPage: 100, sort: 'created_at', order: 'asc', cursor }, {});
    comments.push(...result.items);
    if (!result.nextCursor) return comments;
    cursor = result.nextCursor;
  }
};

const lineOf = (comment: ReviewComment): string =>
  comment.start_line === null ? `${comment.line}` : `${comment.start_line}-${comment.line}`;

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `${by}${line}`))
    .join('\n');

/** The review as text: header, summary, files set aside, then the comments by file. */
export const renderReview = (review: Review, comments: ReviewComment[]): string => {
  const short = (commit: string | null) => (commit ? commit.slice(0, 12) : '—');
  const head = review.head ?? `the change of workflow ${review.workflow_id ?? '?'}`;
  const lines = [
    `${review.id}  ${review.status}${review.verdict ? `: ${review.verdict}` : ''}`,
    `${head} into ${review.base_ref ?? review.base ?? 'the default branch'} (merge base ${short(review.merge_base)}, head ${short(review.head_commit)})`,
  ];
  if (review.error) lines.push(`error: ${review.error}`);
  if (review.summary) lines.push('', review.summary);
  const setAside = review.files.filter((file) => file.status !== 'reviewed');
  if (setAside.length > 0) {
    lines.push('', 'Skipped or not reviewed:');
    for (const file of setAside) lines.push(`  ${file.path}  ${file.status}: ${file.reason ?? ''}`);
  }
  if (review.counts) {
    const dropped = review.counts.dropped;
    lines.push(
      '',
      `${review.counts.comments} comment(s); dropped: ${dropped.outside_diff} outside the diff, ${dropped.duplicate} duplicate, ${dropped.over_limit} over the limit`,
    );
  }
  let path: string | undefined;
  for (const comment of comments) {
    if (comment.path !== path) {
      path = comment.path;
      lines.push('', path);
    }
    lines.push(
      `  ${lineOf(comment).padEnd(8)} ${comment.severity.padEnd(8)} ${comment.category}${comment.rule ? `  ${comment.rule}` : ''}`,
    );
    lines.push(indent(comment.body, '           '));
    if (comment.suggestion) lines.push(indent(comment.suggestion.patch.trimEnd(), '           | '));
  }
  return lines.join('\n');
};

export const reviewsCommand = async (
  args: string[],
  io: CommandIo,
  tableOf: (stack: string | undefined) => Promise<TableRef>,
): Promise<number> => {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        account: { type: 'string' },
        mode: { type: 'string' },
        stack: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    const [command, id] = positionals;
    if (values.help || command === undefined) {
      io.out(reviewsUsage);
      return 0;
    }
    if (command !== 'show' || id === undefined) throw new UsageError(`Unknown command "reviews ${positionals.join(' ')}".`);
    if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') throw new UsageError('--mode is live or test');
    const table = await tableOf(values.stack);
    let accountId = values.account;
    if (!accountId) {
      const accounts = await adminDeps(table).accounts.list(2);
      if (accounts.length !== 1 || !accounts[0])
        throw new UsageError('There are several accounts (or none): name one with --account <acct_id>.');
      accountId = accounts[0].id;
    }
    const modes: Mode[] = values.mode ? [values.mode as Mode] : ['live', 'test'];
    for (const mode of modes) {
      const tenant: Tenant = { accountId, mode };
      const review = await dynamoReviewRepository(table).get(tenant, id);
      if (!review) continue;
      const comments = await allComments(table, tenant, review.id);
      io.out(
        values.json
          ? JSON.stringify({ data: viewOfReview(review), comments: comments.map(viewOfComment) }, null, 2)
          : renderReview(review, comments),
      );
      return 0;
    }
    io.err(`Review ${id} not found in ${accountId} (${modes.join(' or ')} mode).`);
    return 1;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${reviewsUsage}`);
      return 2;
    }
    throw error;
  }
};
