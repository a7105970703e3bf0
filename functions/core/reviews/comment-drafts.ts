import { severityRank } from '../security/finding';
import type { ReviewComment } from './review';

/** A comment before it is stored: no id, review or time yet. */
export type DraftComment = Omit<ReviewComment, 'id' | 'review_id' | 'project_id' | 'created_at'>;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Analysis before the AI: a model repeating what an analyser found adds nothing. */
const bySource = (a: DraftComment, b: DraftComment): number => (a.source === b.source ? 0 : a.source === 'analysis' ? -1 : 1);

/** Reading order: by path, then line, then most severe first, analysis before the AI. */
const byPosition = (a: DraftComment, b: DraftComment): number =>
  compare(a.path, b.path) ||
  a.line - b.line ||
  (a.start_line ?? a.line) - (b.start_line ?? b.line) ||
  severityRank[a.severity] - severityRank[b.severity] ||
  bySource(a, b) ||
  compare(a.body, b.body);

const placeAndText = (comment: DraftComment): string =>
  JSON.stringify([comment.path, comment.start_line, comment.line, comment.body.trim().replace(/\s+/g, ' ').toLowerCase()]);

/** Each place and text once, in the order given. */
export const uniqueComments = (drafts: DraftComment[]): DraftComment[] => {
  const seen = new Set<string>();
  return drafts.filter((draft) => {
    const key = placeAndText(draft);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/**
 * The comments a review keeps, in reading order: each place and text once (analysis first, so a
 * model repeating a finding adds nothing), at most `max`; past it the least severe are dropped.
 */
export const keptComments = (drafts: DraftComment[], max: number): { comments: DraftComment[]; duplicate: number; overLimit: number } => {
  const unique = uniqueComments([...drafts].sort(bySource));
  const bySeverity = [...unique].sort((a, b) => severityRank[a.severity] - severityRank[b.severity] || byPosition(a, b));
  const kept = bySeverity.slice(0, max);
  return { comments: kept.sort(byPosition), duplicate: drafts.length - unique.length, overLimit: unique.length - kept.length };
};
