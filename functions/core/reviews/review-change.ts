import type { AiProvider } from '../ai/provider';
import type { ReviewAnswer } from '../ai/review-task';
import { maxAnswerComments } from '../ai/review-task';
import { isoTime, type Clock } from '../clock';
import { orderedIds } from '../ids';
import { changeOptimistically } from '../optimistic-update';
import { severityRank } from '../security/finding';
import { zeroCounts } from '../security/scan';
import type { Tenant } from '../tenancy';
import type { PendingEvent } from '../workflows/workflow';
import { checkedAiComments, type ReviewedFile } from './ai-comments';
import { analysisComments, type AnalysisResults } from './analysis';
import type { ChangedFile } from './change-source';
import { keptComments, uniqueComments, type DraftComment } from './comment-drafts';
import { addedLinesOnly, diffOfFile, type DiffFile, maxDiffEdits, undiffedFile } from './diff-files';
import { isDependencyRecord, skipReason } from './file-filter';
import type { Review, ReviewComment, ReviewCounts, ReviewFile, ReviewRepository, ReviewUsage, ReviewVerdict } from './review';
import { reviewLimitsOf, type ReviewLimits } from './review-limits';
import { requestFileOf, splitIntoRequests } from './review-requests';
import { commentCreatedData, reviewCompletedData } from './snapshots';

export interface ReviewChangeDeps {
  reviews: ReviewRepository;
  clock: Clock;
  aiProvider(name: string): Promise<AiProvider>;
  limits?: Partial<ReviewLimits>;
}

/** Read, change, store if unchanged meanwhile (else again); the change answers null when there is nothing to do. */
export const changeReview = (
  deps: Pick<ReviewChangeDeps, 'reviews' | 'clock'>,
  tenant: Tenant,
  id: string,
  change: (review: Review, nowIso: string) => { next: Review; events: PendingEvent[] } | null,
): Promise<Review | undefined> =>
  changeOptimistically(
    `review ${id}`,
    () => deps.reviews.get(tenant, id),
    (current) => {
      const nowIso = isoTime(deps.clock.now());
      const result = change(current, nowIso);
      return result && { ...result, next: { ...result.next, updated_at: nowIso, revision: current.revision + 1 } };
    },
    async (current, { next, events }) => ((await deps.reviews.save(tenant, current, next, events)) ? next : null),
  );

const finished = (review: Review, nowIso: string) => ({
  completed_at: nowIso,
  duration_ms: review.started_at ? Math.max(0, Date.parse(nowIso) - Date.parse(review.started_at)) : 0,
});

/**
 * Counts of the comments a review stored (a review that fails may have stored some first), read
 * strongly consistent: the count the failure is stored under must include a comment stored a moment
 * ago, or the save's check would refuse it every time until the read catches up.
 */
const storedCommentCounts = async (reviews: ReviewRepository, tenant: Tenant, id: string): Promise<ReviewCounts | null> => {
  const comments = await reviews.allComments(tenant, id);
  if (comments.length === 0) return null;
  const by_severity = zeroCounts();
  for (const comment of comments) by_severity[comment.severity] += 1;
  return {
    comments: comments.length,
    by_severity,
    by_source: {
      analysis: comments.filter((comment) => comment.source === 'analysis').length,
      ai: comments.filter((comment) => comment.source === 'ai').length,
    },
    dropped: { outside_diff: 0, duplicate: 0, over_limit: 0 },
    suggestions_dropped: 0,
  };
};

/**
 * A queued or running review that cannot finish: `failed` with the reason, announced by
 * `review.completed`, whose counts are those of the comments it stored before it failed (they stay,
 * and `review.comment.created` announced each). The failure is stored only while the review has the
 * comments counted: one the job stores in between (still writing while the safety net fails it)
 * makes it count again, and once the review is failed no comment can be stored.
 */
export const failReview = async (
  deps: Pick<ReviewChangeDeps, 'reviews' | 'clock'>,
  tenant: Tenant,
  id: string,
  reason: string,
): Promise<Review | undefined> => {
  const unfinished = (review: Review) => review.status === 'queued' || review.status === 'running';
  const failed = await changeOptimistically(
    `review ${id}`,
    async () => {
      const review = await deps.reviews.get(tenant, id);
      return review && { review, stored: unfinished(review) ? await storedCommentCounts(deps.reviews, tenant, id) : null };
    },
    ({ review, stored }) => {
      if (!unfinished(review)) return null;
      const nowIso = isoTime(deps.clock.now());
      const next: Review = {
        ...review,
        status: 'failed',
        error: reason.slice(0, 2_000),
        ...(stored ? { counts: stored } : {}),
        ...finished(review, nowIso),
        updated_at: nowIso,
        revision: review.revision + 1,
      };
      return { next, events: [{ type: 'review.completed' as const, data: reviewCompletedData(next) }] };
    },
    async ({ review, stored }, { next, events }) =>
      (await deps.reviews.save(tenant, review, next, events, { commentCount: stored?.comments ?? 0 })) ? { review: next, stored } : null,
  );
  return failed?.review;
};

const verdictOrder: Record<ReviewVerdict, number> = { approve: 0, comment: 1, request_changes: 2 };

/**
 * The stricter of what the comments call for (anything high or critical: `request_changes`; any
 * comment: `comment`; none: `approve`) and what the AI concluded.
 */
export const verdictOf = (comments: DraftComment[], aiVerdicts: ReviewVerdict[]): ReviewVerdict => {
  const fromComments: ReviewVerdict = comments.some((comment) => severityRank[comment.severity] <= severityRank.high)
    ? 'request_changes'
    : comments.length > 0
      ? 'comment'
      : 'approve';
  return [fromComments, ...aiVerdicts].reduce((a, b) => (verdictOrder[b] > verdictOrder[a] ? b : a));
};

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

const summaryOf = (answers: ReviewAnswer[], files: ReviewFile[], nothingAnalysed: boolean): string => {
  const parts =
    answers.length === 0
      ? [
          nothingAnalysed
            ? 'No file of the change was reviewed or analysed (see files for why): nothing here vouches for it.'
            : 'Nothing was sent for review: the change has no text file to review.',
        ]
      : answers.length === 1
        ? [answers[0]?.summary ?? '']
        : answers.map((answer, index) => `Part ${index + 1} of ${answers.length}: ${answer.summary}`);
  const skipped = files.filter((file) => file.status === 'skipped').length;
  const notReviewed = files.filter((file) => file.status === 'not_reviewed').length;
  const notes = [
    skipped > 0 ? `${plural(skipped, 'file')} skipped (binary or generated)` : '',
    notReviewed > 0 ? `${plural(notReviewed, 'file')} not reviewed (past a limit; see files)` : '',
  ].filter(Boolean);
  return [...parts, ...(notes.length > 0 ? [`${notes.join('; ')}.`] : [])].join('\n\n').slice(0, 8_000);
};

/** The change as read: where it comes from and its files. A workflow's change is not a commit (`head_commit` null). */
export interface ReviewedChange {
  base_ref: string | null;
  merge_base: string | null;
  head_commit: string | null;
  files: ChangedFile[];
  /** The diff as it was recorded (a workflow's stored patch), by path; computed from both sides where absent. */
  diffs?: ReadonlyMap<string, DiffFile>;
}

interface Classified {
  /** Files to analyse and review, with their diffs. */
  reviewable: Array<{ file: ChangedFile; diff: DiffFile }>;
  /** Every file's entry on the review, in path order, filled in as the review goes. */
  entries: Map<string, ReviewFile>;
}

const classify = (files: ChangedFile[], limits: ReviewLimits, recorded?: ReadonlyMap<string, DiffFile>): Classified => {
  const entries = new Map<string, ReviewFile>();
  const reviewable: Classified['reviewable'] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    // Set aside before any diff is computed: a skipped or oversized file costs no diff.
    const skip = skipReason(file);
    const bytes = Buffer.byteLength(file.after ?? file.before ?? '');
    const setAside: Pick<ReviewFile, 'status' | 'reason'> | null = skip
      ? { status: 'skipped', reason: skip }
      : file.kind === 'too_large' || bytes > limits.maxFileBytes
        ? { status: 'not_reviewed', reason: `larger than ${limits.maxFileBytes} bytes` }
        : reviewable.length >= limits.maxFiles
          ? { status: 'not_reviewed', reason: `past the cap of ${limits.maxFiles} files per review` }
          : null;
    const diff = recorded?.get(file.path) ?? (setAside ? undefined : diffOfFile(file));
    const { additions, deletions } = diff ?? undiffedFile(file);
    const entry: ReviewFile = {
      path: file.path,
      previous_path: file.previous_path,
      change: file.change,
      additions,
      deletions,
      ...(setAside ??
        (diff
          ? { status: 'reviewed', reason: null }
          : { status: 'not_reviewed', reason: `its diff changes more than ${maxDiffEdits} lines` })),
    };
    entries.set(file.path, entry);
    if (entry.status === 'reviewed' && diff) reviewable.push({ file, diff });
  }
  return { reviewable, entries };
};

/**
 * A generated file the review sets aside (no type check, no sast, nothing sent to the AI) whose
 * secrets are still scanned for: what a build writes (`dist/`, a minified bundle, a file marked
 * `@generated`) can carry a key as well as its source. Not third-party code under `node_modules/`,
 * and not a lockfile.
 */
const secretsScannedThoughSetAside = (file: ChangedFile, entry: ReviewFile | undefined): boolean =>
  file.kind === 'text' &&
  file.after !== null &&
  entry?.status === 'skipped' &&
  (entry.reason ?? '').startsWith('generated:') &&
  !isDependencyRecord(file.path);

/**
 * The head-side lines a secret found at `line` takes: that line, and for a PEM block (a private key
 * begins there) every line through its END line, so no line of the key body reaches the AI.
 */
const linesOfSecret = (head: string | null, line: number): number[] => {
  const lines = head?.split('\n') ?? [];
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(lines[line - 1] ?? '') || /-----END [A-Z0-9 ]+-----/.test(lines[line - 1] ?? '')) return [line];
  const end = lines.findIndex((text, index) => index >= line && /-----END [A-Z0-9 ]+-----/.test(text));
  const last = end === -1 ? lines.length : end + 1;
  return Array.from({ length: last - line + 1 }, (_, i) => line + i);
};

/** The files the review record lists: the first `maxListedFiles`, within `maxListedFilesBytes` as JSON. */
const listedFiles = (files: ReviewFile[], limits: ReviewLimits): ReviewFile[] => {
  const listed: ReviewFile[] = [];
  let bytes = 0;
  for (const file of files.slice(0, limits.maxListedFiles)) {
    bytes += Buffer.byteLength(JSON.stringify(file));
    if (bytes > limits.maxListedFilesBytes) break;
    listed.push(file);
  }
  return listed;
};

/**
 * Reviews a change into a `running` review: sets binary and generated files aside, applies the
 * limits, turns the analysis into comments, asks the AI provider part by part (the diff split by
 * file to fit one request), keeps only the AI comments that sit on the diff, then stores each
 * comment with its `review.comment.created` event and completes the review with
 * `review.completed`. The review is failed (also with `review.completed`) if this throws.
 */
export const reviewChange = async (
  deps: ReviewChangeDeps,
  tenant: Tenant,
  review: Review,
  change: ReviewedChange,
  analyse: (files: ChangedFile[], secretsOnly: ChangedFile[]) => Promise<AnalysisResults>,
): Promise<{ review: Review | undefined; comments: ReviewComment[] }> => {
  const limits = reviewLimitsOf(deps.limits);
  const { reviewable, entries } = classify(change.files, limits, change.diffs);
  const diffs = reviewable.map(({ diff }) => diff);
  const generated = change.files.filter((file) => secretsScannedThoughSetAside(file, entries.get(file.path)));
  const results = await analyse(
    reviewable.map(({ file }) => file),
    generated,
  );
  // The lines the secrets scanner named, by file. A secret found in a generated file is placed on
  // its diff, computed for such a file only; for a rebuild changing too many lines to diff, on the
  // secrets' lines the change added.
  const secretLinesFound = new Map<string, number[]>();
  for (const finding of results.findings) {
    if (finding.type !== 'secrets') continue;
    const found = secretLinesFound.get(finding.location.path) ?? [];
    if (finding.location.line !== null) found.push(finding.location.line);
    secretLinesFound.set(finding.location.path, found);
  }
  const generatedDiffs = generated
    .filter((file) => secretLinesFound.has(file.path))
    .map((file) => change.diffs?.get(file.path) ?? diffOfFile(file) ?? addedLinesOnly(file, secretLinesFound.get(file.path) ?? []));
  const analysed = analysisComments([...diffs, ...generatedDiffs], results);

  const heads = new Map(reviewable.map(({ file }) => [file.path, file.after]));
  const secretLines = new Map(
    [...secretLinesFound].map(([path, found]) => [path, new Set(found.flatMap((line) => linesOfSecret(heads.get(path) ?? null, line)))]),
  );

  const reviewed = new Map<string, ReviewedFile>(
    reviewable.map(({ file, diff }) => [file.path, { diff, content: file.after, secretLines: secretLines.get(file.path) ?? new Set() }]),
  );
  // A finding reported twice at one place is sent once: the provider's summary counts what it is given.
  const analysisOnce = uniqueComments(analysed.comments);
  const requestFiles = reviewable.map(({ file, diff }) =>
    requestFileOf(
      diff,
      file.after,
      analysisOnce.filter((comment) => comment.path === file.path),
      secretLines.get(file.path) ?? new Set(),
      limits.surroundingLines,
    ),
  );
  const { requests, tooLarge } = splitIntoRequests(requestFiles, limits.requestCharacters);
  for (const { path, size } of tooLarge) {
    Object.assign(entries.get(path) ?? {}, {
      status: 'not_reviewed',
      reason: `its diff needs ${size} characters, more than one AI request holds (${limits.requestCharacters}); only the analysis ran`,
    });
    reviewed.delete(path);
  }

  const answers: ReviewAnswer[] = [];
  const aiDrafts: DraftComment[] = [];
  let aiOutside = 0;
  let suggestionsDropped = 0;
  const usage: ReviewUsage = { input_tokens: 0, output_tokens: 0, provider: review.ai_provider, model: '', requests: 0 };
  if (requests.length > 0) {
    const provider = await deps.aiProvider(review.ai_provider);
    for (const [index, request] of requests.entries()) {
      const answer = await provider.run({
        kind: 'review',
        instructions: review.instructions,
        part: { index: index + 1, of: requests.length },
        files: request.map(({ file }) => file),
        analysis: request.flatMap(({ analysis }) => analysis),
        maxComments: Math.min(maxAnswerComments, limits.maxComments),
      });
      answers.push(answer.output);
      const checked = checkedAiComments(answer.output.comments, reviewed);
      aiDrafts.push(...checked.comments);
      aiOutside += checked.outsideDiff;
      suggestionsDropped += checked.suggestionsDropped;
      Object.assign(usage, {
        input_tokens: usage.input_tokens + answer.usage.input_tokens,
        output_tokens: usage.output_tokens + answer.usage.output_tokens,
        provider: answer.provider,
        model: answer.model,
        requests: usage.requests + 1,
      });
    }
  }

  const kept = keptComments([...analysed.comments, ...aiDrafts], limits.maxComments);
  const nextId = orderedIds('reviewComment');
  const written: ReviewComment[] = [];
  for (const draft of kept.comments) {
    const now = deps.clock.now();
    const comment: ReviewComment = {
      id: nextId(now),
      review_id: review.id,
      project_id: review.project_id,
      ...draft,
      created_at: isoTime(now),
    };
    const stored = await deps.reviews.addComment(tenant, comment, { type: 'review.comment.created', data: commentCreatedData(comment) });
    // Failed meanwhile (the safety net): what is stored stays, nothing more is added.
    if (!stored) return { review: await deps.reviews.get(tenant, review.id), comments: written };
    written.push(comment);
  }

  const by_severity = zeroCounts();
  for (const comment of kept.comments) by_severity[comment.severity] += 1;
  const counts: ReviewCounts = {
    comments: kept.comments.length,
    by_severity,
    by_source: {
      analysis: kept.comments.filter((comment) => comment.source === 'analysis').length,
      ai: kept.comments.filter((comment) => comment.source === 'ai').length,
    },
    dropped: { outside_diff: analysed.outsideDiff + aiOutside, duplicate: kept.duplicate, over_limit: kept.overLimit },
    suggestions_dropped: suggestionsDropped,
  };
  const files = [...entries.values()];
  const nothingAnalysed = files.length > 0 && reviewable.length === 0;
  const completed = await changeReview(deps, tenant, review.id, (current, nowIso) => {
    if (current.status !== 'running') return null;
    const next: Review = {
      ...current,
      status: 'completed',
      base_ref: change.base_ref,
      merge_base: change.merge_base,
      head_commit: change.head_commit,
      summary: summaryOf(answers, files, nothingAnalysed),
      // A change none of whose files could be analysed is not approved: nothing vouches for it.
      verdict: verdictOf(kept.comments, [...answers.map((answer) => answer.verdict), ...(nothingAnalysed ? ['comment' as const] : [])]),
      counts,
      files: listedFiles(files, limits),
      files_total: files.length,
      ai_usage: usage.requests > 0 ? usage : null,
      ...finished(current, nowIso),
    };
    return { next, events: [{ type: 'review.completed', data: reviewCompletedData(next) }] };
  });
  return { review: completed, comments: written };
};
