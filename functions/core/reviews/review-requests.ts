import type { ReviewTaskFile, ReviewTaskFinding } from '../ai/review-task';
import type { DraftComment } from './comment-drafts';
import { numberedDiff, type DiffFile } from './diff-files';

/** What one file brings to an AI request. */
export interface RequestFile {
  file: ReviewTaskFile;
  analysis: ReviewTaskFinding[];
}

/** Room kept in every request for the instructions, the rules and the answer's shape. */
export const requestOverhead = 8_000;

const withheld = (line: number): string => `[line ${line} withheld: the secrets scanner flagged it]`;

/** The head file's lines (with a `\r` kept where the file has one), 1-based by index + 1. */
const linesOf = (content: string): string[] => (content.endsWith('\n') ? content.slice(0, -1) : content).split('\n');

/** Numbered head-side windows of `around` lines before and after each hunk, merged where they meet. */
const surroundingCode = (diff: DiffFile, content: string, around: number, masked: Set<number>): string | null => {
  const lines = linesOf(content);
  const windows: Array<[number, number]> = [];
  for (const hunk of diff.hunks) {
    if (hunk.new_lines === 0) continue;
    const start = Math.max(1, hunk.new_start - around);
    const end = Math.min(lines.length, hunk.new_start + hunk.new_lines - 1 + around);
    const last = windows[windows.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  if (windows.length === 0) return null;
  const width = String(lines.length).length;
  return windows
    .map(([start, end]) =>
      lines
        .slice(start - 1, end)
        .map((text, i) => {
          const number = start + i;
          return `${String(number).padStart(width)} | ${masked.has(number) ? withheld(number) : text}`;
        })
        .join('\n'),
    )
    .join('\n…\n');
};

/** The diff with the lines the secrets scanner flagged withheld: no secret is sent to an AI provider. */
const maskedDiff = (diff: DiffFile, masked: Set<number>): DiffFile =>
  masked.size === 0
    ? diff
    : {
        ...diff,
        hunks: diff.hunks.map((hunk) => ({
          ...hunk,
          lines: hunk.lines.map((line) =>
            line.new_line !== null && masked.has(line.new_line) ? { ...line, text: withheld(line.new_line) } : line,
          ),
        })),
      };

/**
 * The file as a review request shows it: its numbered hunks and, for a modified or renamed file,
 * the head-side code around them. `secretLines` are withheld everywhere.
 */
export const requestFileOf = (
  diff: DiffFile,
  content: string | null,
  analysis: DraftComment[],
  secretLines: Set<number>,
  surroundingLines: number,
): RequestFile => {
  const shown = diff.change === 'deleted' ? null : maskedDiff(diff, secretLines);
  return {
    file: {
      path: diff.path,
      previous_path: diff.previous_path,
      change: diff.change,
      diff: shown ? numberedDiff(shown) : '',
      // A new file's diff is the whole file already.
      surrounding:
        shown && content !== null && diff.change !== 'added' ? surroundingCode(diff, content, surroundingLines, secretLines) : null,
    },
    analysis: analysis.map((comment) => ({
      path: comment.path,
      line: comment.line,
      severity: comment.severity,
      category: comment.category,
      rule: comment.rule ?? 'analysis',
      message: comment.body.replace(/\s+/g, ' ').slice(0, 500),
    })),
  };
};

const sizeOf = (request: RequestFile): number =>
  request.file.path.length * 2 +
  request.file.diff.length +
  (request.file.surrounding?.length ?? 0) +
  request.analysis.reduce((total, finding) => total + finding.path.length + finding.rule.length + finding.message.length + 40, 0) +
  200;

/**
 * Splits the files into requests of at most `budget` characters each, by file, in path order. A
 * file too large for one request goes without its surrounding code; if its diff alone is still too
 * large, it is left out (`tooLarge`) and listed as not reviewed by the AI.
 */
export const splitIntoRequests = (
  files: RequestFile[],
  budget: number,
): { requests: RequestFile[][]; tooLarge: Array<{ path: string; size: number }> } => {
  const room = Math.max(1, budget - requestOverhead);
  const requests: RequestFile[][] = [];
  const tooLarge: Array<{ path: string; size: number }> = [];
  let current: RequestFile[] = [];
  let used = 0;
  for (const original of files) {
    let file = original;
    if (sizeOf(file) > room && file.file.surrounding !== null) file = { ...file, file: { ...file.file, surrounding: null } };
    const size = sizeOf(file);
    if (size > room) {
      tooLarge.push({ path: file.file.path, size: size + requestOverhead });
      continue;
    }
    if (used + size > room && current.length > 0) {
      requests.push(current);
      current = [];
      used = 0;
    }
    current.push(file);
    used += size;
  }
  if (current.length > 0) requests.push(current);
  return { requests, tooLarge };
};
