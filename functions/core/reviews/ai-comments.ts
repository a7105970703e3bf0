import { applyPatch, formatPatch, structuredPatch } from 'diff';
import type { ReviewAnswerComment } from '../ai/review-task';
import type { DraftComment } from './comment-drafts';
import { headLines, isInDiff, type DiffFile, type HeadLine } from './diff-files';
import type { Suggestion } from './review';

/** A file of the review as the AI's comments are checked against it. */
export interface ReviewedFile {
  diff: DiffFile;
  /** The head file's text. */
  content: string | null;
  /** Lines the secrets scanner flagged: withheld from the AI, and never in a suggestion's patch. */
  secretLines: ReadonlySet<number>;
}

/** Lines of context a suggestion's patch shows around the change. */
const patchContext = 3;

const nearSecret = (file: ReviewedFile, start: number, end: number): boolean =>
  [...file.secretLines].some((line) => line >= start - patchContext && line <= end + patchContext);

/**
 * The suggestion as a patch of the head file, kept only if it applies cleanly (jsdiff's
 * `applyPatch`, as `git apply` would) and changes something; null otherwise.
 */
export const suggestionPatch = (path: string, content: string, start: number, end: number, replacement: string): Suggestion | null => {
  const finalNewline = content.endsWith('\n');
  const lines = (finalNewline ? content.slice(0, -1) : content).split('\n');
  if (start < 1 || end > lines.length || end < start) return null;
  const crlf = (lines[start - 1] ?? '').endsWith('\r');
  const body = replacement.replace(/\r\n/g, '\n').replace(/\n$/, '');
  const replaced = replacement === '' ? [] : body.split('\n').map((line) => (crlf ? `${line}\r` : line));
  const patched = [...lines.slice(0, start - 1), ...replaced, ...lines.slice(end)].join('\n') + (finalNewline ? '\n' : '');
  if (patched === content) return null;
  const patch = formatPatch({
    ...structuredPatch(`a/${path}`, `b/${path}`, content, patched, undefined, undefined, { context: patchContext }),
    isGit: true,
  });
  return applyPatch(content, patch) === patched ? { replacement: replaced.map((line) => line.replace(/\r$/, '')).join('\n'), patch } : null;
};

/**
 * The AI's comments that sit on lines the diff shows (head side, one hunk per comment), as drafts.
 * A comment anywhere else (another file, a removed line, a line outside every hunk) is dropped
 * and counted, never moved; a suggestion that does not apply cleanly (or whose patch would show a
 * line the secrets scanner flagged) is dropped from its comment.
 */
export const checkedAiComments = (
  answer: ReviewAnswerComment[],
  files: ReadonlyMap<string, ReviewedFile>,
): { comments: DraftComment[]; outsideDiff: number; suggestionsDropped: number } => {
  const lineMaps = new Map<string, Map<number, HeadLine>>();
  const comments: DraftComment[] = [];
  let outsideDiff = 0;
  let suggestionsDropped = 0;
  for (const comment of answer) {
    const file = files.get(comment.path);
    if (!file) {
      outsideDiff += 1;
      continue;
    }
    let lines = lineMaps.get(comment.path);
    if (!lines) {
      lines = headLines(file.diff);
      lineMaps.set(comment.path, lines);
    }
    const start = comment.start_line ?? comment.line;
    if (!isInDiff(lines, start, comment.line)) {
      outsideDiff += 1;
      continue;
    }
    let suggestion: Suggestion | null = null;
    if (comment.suggestion !== null) {
      suggestion =
        file.content === null || nearSecret(file, start, comment.line)
          ? null
          : suggestionPatch(comment.path, file.content, start, comment.line, comment.suggestion);
      if (!suggestion) suggestionsDropped += 1;
    }
    comments.push({
      path: comment.path,
      start_line: start === comment.line ? null : start,
      line: comment.line,
      severity: comment.severity,
      category: comment.category,
      source: 'ai',
      rule: null,
      body: comment.body,
      suggestion,
    });
  }
  return { comments, outsideDiff, suggestionsDropped };
};
