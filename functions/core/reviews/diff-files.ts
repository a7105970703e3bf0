import { parsePatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { ChangedFile } from './change-source';
import type { FileChangeKind } from './review';

/**
 * A change as a review reads it: per file, hunks of numbered lines. Built by jsdiff (`diff`), the
 * same library that writes the service's patches, either from a unified diff's text (git's dialect:
 * renames, new and deleted files, binary markers) or from both sides of a file.
 */

export interface DiffLine {
  kind: 'context' | 'added' | 'deleted';
  text: string;
  /** Base-side line number (context and deleted lines). */
  old_line: number | null;
  /** Head-side line number (context and added lines): what a comment's `line` refers to. */
  new_line: number | null;
}

export interface DiffHunk {
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  previous_path: string | null;
  change: FileChangeKind;
  binary: boolean;
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
}

/** Lines of unchanged context around each hunk, as git shows by default. */
export const diffContextLines = 3;

const hunkOf = (hunk: StructuredPatchHunk): DiffHunk => {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  const lines: DiffLine[] = [];
  for (const raw of hunk.lines) {
    const marker = raw[0];
    const text = raw.slice(1);
    // "\ No newline at end of file" describes the line before it; it is no line of the file.
    if (marker === '\\') continue;
    if (marker === '+') lines.push({ kind: 'added', text, old_line: null, new_line: newLine++ });
    else if (marker === '-') lines.push({ kind: 'deleted', text, old_line: oldLine++, new_line: null });
    else lines.push({ kind: 'context', text, old_line: oldLine++, new_line: newLine++ });
  }
  return { old_start: hunk.oldStart, old_lines: hunk.oldLines, new_start: hunk.newStart, new_lines: hunk.newLines, lines };
};

const counted = (file: Omit<DiffFile, 'additions' | 'deletions'>): DiffFile => {
  const lines = file.hunks.flatMap((hunk) => hunk.lines);
  return {
    ...file,
    additions: lines.filter((line) => line.kind === 'added').length,
    deletions: lines.filter((line) => line.kind === 'deleted').length,
  };
};

/** A file name of a patch header without git's `a/` or `b/`; null for /dev/null. */
const nameOf = (name: string | undefined, prefix: 'a/' | 'b/', prefixed: boolean): string | null => {
  if (name === undefined || name === '/dev/null' || name === '') return null;
  return prefixed && name.startsWith(prefix) ? name.slice(prefix.length) : name;
};

const changeOf = (patch: StructuredPatch, oldPath: string | null, newPath: string | null): FileChangeKind => {
  if (patch.isDelete || newPath === null) return 'deleted';
  if (patch.isCreate || oldPath === null) return 'added';
  if (patch.isRename || oldPath !== newPath) return 'renamed';
  return 'modified';
};

/** Every file of a unified diff (git's dialect or plain `diff -u`). Throws on a malformed patch. */
export const parseUnifiedDiff = (text: string): DiffFile[] =>
  parsePatch(text.replace(/\r\n/g, '\n'))
    .filter((patch) => patch.oldFileName !== undefined || patch.newFileName !== undefined)
    .map((patch) => {
      // git writes a/ and b/ before every name (unless --no-prefix); plain diffs write none.
      const prefixed =
        (patch.oldFileName === '/dev/null' || (patch.oldFileName ?? '').startsWith('a/')) &&
        (patch.newFileName === '/dev/null' || (patch.newFileName ?? '').startsWith('b/'));
      let oldPath = nameOf(patch.oldFileName, 'a/', prefixed);
      let newPath = nameOf(patch.newFileName, 'b/', prefixed);
      // A git header names the file on both sides even when it is created or deleted.
      if (patch.isCreate) oldPath = null;
      if (patch.isDelete) newPath = null;
      const change = changeOf(patch, oldPath, newPath);
      return counted({
        path: (newPath ?? oldPath) as string,
        previous_path: change === 'renamed' ? oldPath : null,
        change,
        binary: patch.isBinary === true,
        hunks: patch.hunks.map(hunkOf),
      });
    });

/**
 * An edited file's diff is computed line by line only while it changes at most this many lines: the
 * cost of the diff grows with the square of that number (a regenerated lockfile, a rewritten file).
 */
export const maxDiffEdits = 2000;

const linesOf = (text: string | null): string[] => (text ? text.replace(/\n$/, '').split('\n') : []);

/**
 * Additions and deletions from the lines the two sides share, in any order: linear in their size,
 * for a file set aside without its diff (what git's `--stat` would say, but for moved lines).
 */
export const roughCounts = (before: string | null, after: string | null): { additions: number; deletions: number } => {
  const left = new Map<string, number>();
  const old = linesOf(before);
  for (const line of old) left.set(line, (left.get(line) ?? 0) + 1);
  const next = linesOf(after);
  let same = 0;
  for (const line of next) {
    const count = left.get(line) ?? 0;
    if (count === 0) continue;
    same += 1;
    left.set(line, count - 1);
  }
  return { additions: next.length - same, deletions: old.length - same };
};

/**
 * The share of lines two texts have in common, in any order (as git estimates a rename by content
 * rather than by a diff): linear in their size. 1 for two empty texts.
 */
export const lineSimilarity = (a: string, b: string): number => {
  const { additions, deletions } = roughCounts(a, b);
  const lines = linesOf(a).length + linesOf(b).length;
  return lines === 0 ? 1 : (lines - additions - deletions) / lines;
};

/** A changed file set aside before its diff is computed (skipped, too large, past a limit): no hunks, counts only. */
export const undiffedFile = (file: ChangedFile): DiffFile => ({
  path: file.path,
  previous_path: file.previous_path,
  change: file.change,
  binary: file.kind === 'binary',
  hunks: [],
  ...(file.kind === 'text' ? roughCounts(file.before, file.after) : { additions: 0, deletions: 0 }),
});

/**
 * The diff of one changed file from its two sides (no hunks for a binary or too large one);
 * undefined for an edit of more than `maxDiffEdits` lines.
 */
export const diffOfFile = (file: ChangedFile, context = diffContextLines): DiffFile | undefined => {
  if (file.kind !== 'text') return undiffedFile(file);
  const patch = structuredPatch(
    file.before === null ? '/dev/null' : `a/${file.previous_path ?? file.path}`,
    file.after === null ? '/dev/null' : `b/${file.path}`,
    file.before ?? '',
    file.after ?? '',
    undefined,
    undefined,
    // A created or deleted file costs a linear diff, whatever its size: only an edit is bounded.
    { context, ...(file.before !== null && file.after !== null ? { maxEditLength: maxDiffEdits } : {}) },
  );
  if (!patch) return undefined;
  return counted({
    path: file.path,
    previous_path: file.previous_path,
    change: file.change,
    binary: false,
    hunks: patch.hunks.map(hunkOf),
  });
};

/**
 * For an edit too large to diff line by line (`diffOfFile` gives up): of the head-side `lines`,
 * those the change added, each a hunk of its own. A line counts as added when its text is no line
 * of the base, which is what a diff says of it; a line whose text the base has was there before
 * (a secret the change kept is not its doing). Linear in the file's size.
 */
export const addedLinesOnly = (file: ChangedFile, lines: Iterable<number>): DiffFile => {
  const base = new Set(linesOf(file.before));
  const head = linesOf(file.after);
  const hunks: DiffHunk[] = [...new Set(lines)]
    .sort((a, b) => a - b)
    .filter((line) => line >= 1 && line <= head.length && !base.has(head[line - 1] as string))
    .map((line) => ({
      old_start: 0,
      old_lines: 0,
      new_start: line,
      new_lines: 1,
      lines: [{ kind: 'added', text: head[line - 1] as string, old_line: null, new_line: line }],
    }));
  return { ...undiffedFile(file), hunks };
};

export interface HeadLine {
  kind: 'context' | 'added';
  /** Index of the hunk in the file: a comment's range stays within one hunk, as on GitHub. */
  hunk: number;
  text: string;
}

/** The head-side lines the diff shows, by line number: the lines a comment can be placed on. */
export const headLines = (file: DiffFile): Map<number, HeadLine> => {
  const lines = new Map<number, HeadLine>();
  file.hunks.forEach((hunk, index) => {
    for (const line of hunk.lines) {
      if (line.new_line !== null && line.kind !== 'deleted') lines.set(line.new_line, { kind: line.kind, hunk: index, text: line.text });
    }
  });
  return lines;
};

/** The head-side line numbers the change added. */
export const addedLines = (file: DiffFile): Set<number> =>
  new Set(file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind === 'added').map((line) => line.new_line as number)));

/**
 * Whether lines `start`..`end` (head side) are all shown by the diff, in one hunk: where GitHub
 * lets a review comment sit.
 */
export const isInDiff = (lines: Map<number, HeadLine>, start: number, end: number): boolean => {
  const first = lines.get(start);
  if (!first || end < start) return false;
  for (let line = start; line <= end; line += 1) {
    if (lines.get(line)?.hunk !== first.hunk) return false;
  }
  return true;
};

/** A hunk header's range as git writes it: an empty side names the line before it (`-0,0` for a new file). */
const sideRange = (start: number, lines: number): string => `${lines === 0 ? Math.max(0, start - 1) : start},${lines}`;

/**
 * The hunks as a reader (or a model) sees them: the hunk header, then each line with its head-side
 * number (blank for a deleted line) and its `+`, `-` or space marker.
 */
export const numberedDiff = (file: DiffFile): string =>
  file.hunks
    .map((hunk) =>
      [
        `@@ -${sideRange(hunk.old_start, hunk.old_lines)} +${sideRange(hunk.new_start, hunk.new_lines)} @@`,
        ...hunk.lines.map(
          (line) =>
            `${(line.new_line === null ? '' : String(line.new_line)).padStart(6)} ${line.kind === 'added' ? '+' : line.kind === 'deleted' ? '-' : ' '}${line.text}`,
        ),
      ].join('\n'),
    )
    .join('\n');
