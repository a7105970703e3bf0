import { aiProviderNames } from '../../functions/core/ai/provider';
import type { ListItem, SuccessBody } from '@project-automation-service/sdk';
import {
  argument,
  type CommandContext,
  type CommandGroup,
  listOptions,
  pageQuery,
  jobListOptions,
  jobListQuery,
  optionalString,
  required,
  idempotencyOption,
} from './command';
import { printList, readList } from './list-result';
import { jobTime, table } from './output';
import { interrupted, pollUntil } from './watch';

export type ReviewView = SuccessBody<'/v1/reviews/{id}', 'get'>['data'];
export type ReviewCommentView = ListItem<'/v1/reviews/{id}/comments'>;

const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
const finished = ['completed', 'failed'];

const readReview = async (context: CommandContext, id: string): Promise<ReviewView> =>
  (await context.api.get('/v1/reviews/{id}', { params: { path: { id } } })).data;

/** Every comment of a review, in the diff's reading order (path, then line). */
const allComments = async (context: CommandContext, id: string): Promise<ReviewCommentView[]> => {
  const comments: ReviewCommentView[] = [];
  for await (const comment of context.api.paginate('/v1/reviews/{id}/comments', {
    params: { path: { id }, query: { order: 'asc', per_page: 100 } },
  }))
    comments.push(comment);
  return comments;
};

const lineOf = (comment: ReviewCommentView): string =>
  comment.start_line === null ? `${comment.line}` : `${comment.start_line}-${comment.line}`;

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `${by}${line}`))
    .join('\n');

/** A review as a reviewer reads it: header, summary, files set aside, then the comments by file with their patches. */
export const renderReview = (review: ReviewView, comments: ReviewCommentView[]): string => {
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

/** The review and its comments: JSON `{ data, comments }` for scripts, the rendering for people. */
const showReview = async (context: CommandContext, review: ReviewView): Promise<void> => {
  const comments = review.status === 'completed' ? await allComments(context, review.id) : [];
  context.out.result({ data: review, comments }, () => renderReview(review, comments));
};

/** `--watch` and `show` exit 1 when the review failed or asks for changes: a gate for CI. */
const passed = (review: ReviewView) => review.status === 'completed' && review.verdict !== 'request_changes';

export const reviews: CommandGroup = {
  name: 'reviews',
  summary: 'AI code reviews of a change',
  commands: {
    create: {
      summary: 'review what a pull request from --head into --base would show',
      options: {
        project: { type: 'string', description: 'the project id (required)' },
        head: { type: 'string', description: 'the branch or commit to review (required)' },
        base: { type: 'string', description: 'the branch or commit it goes into (default: the repository default)' },
        provider: {
          type: 'string',
          description: 'AI provider this deployment offers: local (offline), bedrock, openai, anthropic (default: the first configured)',
          values: aiProviderNames,
        },
        instructions: { type: 'string', description: 'what the review should focus on' },
        watch: { type: 'boolean', description: 'wait and print the review; exit status 1 when it failed or requests changes' },
        ...idempotencyOption,
      },
      async run(context) {
        const { data } = await context.api.post('/v1/reviews', {
          body: {
            project_id: required(context, 'project'),
            head: required(context, 'head'),
            base: optionalString(context, 'base'),
            ai_provider: optionalString(context, 'provider'),
            instructions: optionalString(context, 'instructions'),
          },
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Reviewing ${data.head} as ${data.id}. Read it: reviews show ${data.id}`);
          return 0;
        }
        const progress = context.out.progress();
        const review = await pollUntil(
          context,
          () => readReview(context, data.id),
          (r) => finished.includes(r.status),
          (r) => progress.update(`${r.id} ${r.status}`, jobTime(r)),
        );
        progress.stop();
        if (!review) return interrupted;
        await showReview(context, review);
        return passed(review) ? 0 : 1;
      },
    },
    list: {
      summary: 'list reviews, newest first',
      options: {
        ...jobListOptions,
      },
      async run(context) {
        const query = {
          ...jobListQuery(context),
        };
        const { items, meta } = await readList<ReviewView>(
          context,
          () => context.api.paginate('/v1/reviews', { params: { query } }),
          () => context.api.get('/v1/reviews', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'STATUS', 'VERDICT', 'HEAD', 'COMMENTS', 'CREATED'],
            items.map((r) => [
              r.id,
              r.status,
              r.verdict,
              r.head ?? (r.workflow_id ? `(${r.workflow_id})` : ''),
              r.counts?.comments,
              r.created_at,
            ]),
          ),
        );
        return 0;
      },
    },
    show: {
      summary: 'print a review with its comments by file and line; exit status 1 when it failed or requests changes',
      args: '<rev_id>',
      async run(context) {
        const review = await readReview(context, argument(context, 0, 'the review id'));
        await showReview(context, review);
        return finished.includes(review.status) && !passed(review) ? 1 : 0;
      },
    },
    comments: {
      summary: "list a review's comments in reading order",
      args: '<rev_id>',
      options: {
        ...listOptions,
        severity: { type: 'string', description: severities.join(', '), values: severities },
        path: { type: 'string', description: 'only comments on this file (head-side path)' },
      },
      async run(context) {
        const id = argument(context, 0, 'the review id');
        const query = {
          order: 'asc' as const,
          ...pageQuery(context),
          severity: optionalString(context, 'severity') as (typeof severities)[number] | undefined,
          path: optionalString(context, 'path'),
        };
        const { items, meta } = await readList<ReviewCommentView>(
          context,
          () => context.api.paginate('/v1/reviews/{id}/comments', { params: { path: { id }, query } }),
          () => context.api.get('/v1/reviews/{id}/comments', { params: { path: { id }, query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'WHERE', 'SEVERITY', 'CATEGORY', 'RULE', 'COMMENT'],
            items.map((c) => [c.id, `${c.path}:${lineOf(c)}`, c.severity, c.category, c.rule, c.body.split('\n')[0]]),
          ),
        );
        return 0;
      },
    },
  },
};
