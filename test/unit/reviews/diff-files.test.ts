import {
  addedLines,
  diffOfFile,
  headLines,
  isInDiff,
  numberedDiff,
  parseUnifiedDiff,
  roughCounts,
  undiffedFile,
} from '../../../functions/core/reviews/diff-files';
import { unifiedDiff } from '../../../functions/core/workspace/diff';

/** What `git diff -M` prints for a change touching every kind of file (index lines as git writes them). */
const gitPatch = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 83db48f..bf269f4 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,7 +1,8 @@',
  ' import { a } from "./a";',
  ' ',
  '-const limit = 10;',
  '+const limit = 20;',
  '+const burst = 40;',
  ' ',
  ' export const run = () => {',
  '   return a(limit);',
  ' };',
  '@@ -20,4 +21,4 @@ export const stop = () => {',
  ' // tail',
  ' const x = 1;',
  '-const y = 2;',
  '+const y = 3;',
  ' const z = 4;',
  'diff --git a/lib/old-name.js b/lib/new-name.js',
  'similarity index 85%',
  'rename from lib/old-name.js',
  'rename to lib/new-name.js',
  'index 1111111..2222222 100644',
  '--- a/lib/old-name.js',
  '+++ b/lib/new-name.js',
  '@@ -2,3 +2,3 @@ module.exports = {',
  '   one: 1,',
  '-  two: 2,',
  '+  two: "two",',
  '   three: 3,',
  'diff --git a/docs/moved.md b/docs/guide/moved.md',
  'similarity index 100%',
  'rename from docs/moved.md',
  'rename to docs/guide/moved.md',
  'diff --git a/src/new.ts b/src/new.ts',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/new.ts',
  '@@ -0,0 +1,3 @@',
  '+export const one = 1;',
  '+export const two = 2;',
  '+export const three = 3;',
  '\\ No newline at end of file',
  'diff --git a/src/gone.ts b/src/gone.ts',
  'deleted file mode 100644',
  'index 4444444..0000000',
  '--- a/src/gone.ts',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-export const gone = true;',
  '-export const also = false;',
  'diff --git a/assets/logo.png b/assets/logo.png',
  'new file mode 100644',
  'index 0000000..5555555',
  'Binary files /dev/null and b/assets/logo.png differ',
  '',
].join('\n');

const byPath = () => new Map(parseUnifiedDiff(gitPatch).map((file) => [file.path, file]));

describe('parsing a unified diff', () => {
  it('reads every file of a git diff with its kind of change, paths and counts', () => {
    expect(
      parseUnifiedDiff(gitPatch).map(({ path, previous_path, change, binary, additions, deletions }) => ({
        path,
        previous_path,
        change,
        binary,
        additions,
        deletions,
      })),
    ).toEqual([
      { path: 'src/app.ts', previous_path: null, change: 'modified', binary: false, additions: 3, deletions: 2 },
      { path: 'lib/new-name.js', previous_path: 'lib/old-name.js', change: 'renamed', binary: false, additions: 1, deletions: 1 },
      { path: 'docs/guide/moved.md', previous_path: 'docs/moved.md', change: 'renamed', binary: false, additions: 0, deletions: 0 },
      { path: 'src/new.ts', previous_path: null, change: 'added', binary: false, additions: 3, deletions: 0 },
      { path: 'src/gone.ts', previous_path: null, change: 'deleted', binary: false, additions: 0, deletions: 2 },
      { path: 'assets/logo.png', previous_path: null, change: 'added', binary: true, additions: 0, deletions: 0 },
    ]);
  });

  it('numbers context lines on both sides, added lines on the head side and deleted lines on the base side', () => {
    const app = byPath().get('src/app.ts');
    const [first, second] = app?.hunks ?? [];
    expect(first?.lines.map((line) => [line.kind, line.old_line, line.new_line, line.text])).toEqual([
      ['context', 1, 1, 'import { a } from "./a";'],
      ['context', 2, 2, ''],
      ['deleted', 3, null, 'const limit = 10;'],
      ['added', null, 3, 'const limit = 20;'],
      ['added', null, 4, 'const burst = 40;'],
      ['context', 4, 5, ''],
      ['context', 5, 6, 'export const run = () => {'],
      ['context', 6, 7, '  return a(limit);'],
      ['context', 7, 8, '};'],
    ]);
    // The second hunk starts where its header says, one line further down on the head side.
    expect(second?.lines.map((line) => [line.kind, line.old_line, line.new_line])).toEqual([
      ['context', 20, 21],
      ['context', 21, 22],
      ['deleted', 22, null],
      ['added', null, 23],
      ['context', 23, 24],
    ]);
  });

  it('maps a renamed and edited file by its new path, its lines numbered from its hunk', () => {
    const renamed = byPath().get('lib/new-name.js');
    expect(headLines(renamed!)).toEqual(
      new Map([
        [2, { kind: 'context', hunk: 0, text: '  one: 1,' }],
        [3, { kind: 'added', hunk: 0, text: '  two: "two",' }],
        [4, { kind: 'context', hunk: 0, text: '  three: 3,' }],
      ]),
    );
    expect(addedLines(renamed!)).toEqual(new Set([3]));
  });

  it('gives a new file every line from 1, ignoring the no-newline marker; a deleted or binary file no head line', () => {
    const files = byPath();
    expect([...headLines(files.get('src/new.ts')!).keys()]).toEqual([1, 2, 3]);
    expect(addedLines(files.get('src/new.ts')!)).toEqual(new Set([1, 2, 3]));
    // Headers read back as git wrote them.
    expect(numberedDiff(files.get('src/new.ts')!).split('\n')[0]).toBe('@@ -0,0 +1,3 @@');
    expect(numberedDiff(files.get('src/gone.ts')!).split('\n')[0]).toBe('@@ -1,2 +0,0 @@');
    expect(headLines(files.get('src/gone.ts')!).size).toBe(0);
    expect(headLines(files.get('assets/logo.png')!).size).toBe(0);
    expect(headLines(files.get('docs/guide/moved.md')!).size).toBe(0);
  });

  it('reads a plain diff -u without a/ and b/ prefixes, and CRLF patch text', () => {
    const plain = [
      '--- notes.txt\t2026-11-21 10:00:00',
      '+++ notes.txt\t2026-11-21 10:05:00',
      '@@ -1,2 +1,2 @@',
      ' keep',
      '-old',
      '+new',
      '',
    ].join('\r\n');
    const [file] = parseUnifiedDiff(plain);
    expect(file).toMatchObject({ path: 'notes.txt', change: 'modified', additions: 1, deletions: 1 });
    expect([...headLines(file!)].map(([line, { kind, text }]) => [line, kind, text])).toEqual([
      [1, 'context', 'keep'],
      [2, 'added', 'new'],
    ]);
  });

  it('refuses a patch whose file headers are cut', () => {
    expect(() => parseUnifiedDiff('--- a/x.ts\n@@ -1 +1 @@\n-a\n+b\n')).toThrow(/file header/);
  });
});

describe('where a comment can sit', () => {
  const app = () => headLines(byPath().get('src/app.ts')!);

  it('on any head-side line a hunk shows, added or context, and on a range inside one hunk', () => {
    const lines = app();
    expect(isInDiff(lines, 3, 3)).toBe(true);
    expect(isInDiff(lines, 1, 1)).toBe(true);
    expect(isInDiff(lines, 3, 8)).toBe(true);
    expect(isInDiff(lines, 23, 23)).toBe(true);
  });

  it('never on a line between hunks, past the end, across two hunks, or on a backwards range', () => {
    const lines = app();
    expect(isInDiff(lines, 12, 12)).toBe(false);
    expect(isInDiff(lines, 9, 9)).toBe(false);
    expect(isInDiff(lines, 99, 99)).toBe(false);
    expect(isInDiff(lines, 8, 21)).toBe(false);
    expect(isInDiff(lines, 5, 3)).toBe(false);
  });
});

describe('the diff of one file from its two sides', () => {
  const before = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', ''].join('\n');
  const after = ['one', 'two', 'three', 'four', 'FIVE', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', ''].join('\n');

  it('has three lines of context and the same numbering as the parsed git patch of the same change', () => {
    const diff = diffOfFile({ path: 'n.txt', previous_path: null, change: 'modified', kind: 'text', before, after })!;
    expect(diff.hunks.map((hunk) => [hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines])).toEqual([[2, 9, 2, 10]]);
    expect(addedLines(diff)).toEqual(new Set([5, 11]));
    expect([...headLines(diff).keys()]).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // The service's own patch of the same change, parsed back, shows the very same hunks.
    const [parsed] = parseUnifiedDiff(unifiedDiff({ 'n.txt': before }, [{ path: 'n.txt', content: after }]));
    expect(parsed?.hunks).toEqual(diff.hunks);
    expect(numberedDiff(diff).split('\n').slice(0, 6)).toEqual([
      '@@ -2,9 +2,10 @@',
      '     2  two',
      '     3  three',
      '     4  four',
      '       -five',
      '     5 +FIVE',
    ]);
  });

  it('makes a created file all added lines and a deleted one all deleted lines', () => {
    const created = diffOfFile({ path: 'c.ts', previous_path: null, change: 'added', kind: 'text', before: null, after: 'a\nb\n' })!;
    const deleted = diffOfFile({ path: 'd.ts', previous_path: null, change: 'deleted', kind: 'text', before: 'a\nb\n', after: null })!;
    expect([created.additions, created.deletions, [...addedLines(created)]]).toEqual([2, 0, [1, 2]]);
    expect([deleted.additions, deleted.deletions, headLines(deleted).size]).toEqual([0, 2, 0]);
  });

  it('is not computed for a file changing more lines than a diff is worth; counted by shared lines instead', () => {
    const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`).join('\n');
    const rewritten = { path: 'big.txt', previous_path: null, change: 'modified' as const, kind: 'text' as const };
    // A complete rewrite of 3,000 lines changes 6,000: beyond the bound, no diff.
    expect(diffOfFile({ ...rewritten, before: lines('old', 3000), after: lines('new', 3000) })).toBeUndefined();
    // Counted without one: every line went and came, and moved lines count as the same.
    expect(roughCounts(lines('old', 3000), lines('new', 3000))).toEqual({ additions: 3000, deletions: 3000 });
    expect(roughCounts('a\nb\nc\n', 'c\nb\na\nd\n')).toEqual({ additions: 1, deletions: 0 });
    expect(undiffedFile({ ...rewritten, before: 'a\n', after: 'a\nb\n' })).toMatchObject({ hunks: [], additions: 1, deletions: 0 });
    // A created file is all additions, however many: its diff is linear.
    expect(diffOfFile({ ...rewritten, change: 'added', before: null, after: lines('new', 5000) })).toMatchObject({ additions: 5000 });
    // Within the bound a diff is computed.
    expect(diffOfFile({ ...rewritten, before: lines('old', 900), after: lines('new', 900) })).toMatchObject({
      additions: 900,
      deletions: 900,
    });
  });

  it('has no hunks for a binary file, and keeps a rename with its previous path', () => {
    const binary = diffOfFile({ path: 'logo.png', previous_path: null, change: 'modified', kind: 'binary', before: null, after: null });
    expect(binary).toMatchObject({ binary: true, hunks: [], additions: 0 });
    const renamed = diffOfFile({ path: 'b.ts', previous_path: 'a.ts', change: 'renamed', kind: 'text', before: 'x\n', after: 'x\ny\n' });
    expect(renamed).toMatchObject({ path: 'b.ts', previous_path: 'a.ts', change: 'renamed', additions: 1 });
  });
});
