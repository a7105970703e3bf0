import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { unifiedDiff } from '../../../functions/core/workspace/diff';
import { tempDirs, writeTree } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

describe('unifiedDiff', () => {
  it('shows a new file against /dev/null', () => {
    expect(unifiedDiff({ 'src/new.ts': null }, [{ path: 'src/new.ts', content: 'one\ntwo\n' }])).toBe(
      [
        'diff --git a/src/new.ts b/src/new.ts',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/src/new.ts',
        '@@ -0,0 +1,2 @@',
        '+one',
        '+two',
        '',
      ].join('\n'),
    );
  });

  it('shows an edited file with three lines of context', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const after = 'l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\n';
    expect(unifiedDiff({ 'a.txt': before }, [{ path: 'a.txt', content: after }])).toBe(
      [
        'diff --git a/a.txt b/a.txt',
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -2,7 +2,7 @@',
        ' l2',
        ' l3',
        ' l4',
        '-l5',
        '+L5',
        ' l6',
        ' l7',
        ' l8',
        '',
      ].join('\n'),
    );
  });

  it('shows a deleted file against /dev/null', () => {
    expect(unifiedDiff({ 'old.md': 'bye\n' }, [{ path: 'old.md', content: null }])).toBe(
      ['diff --git a/old.md b/old.md', 'deleted file mode 100644', '--- a/old.md', '+++ /dev/null', '@@ -1,1 +0,0 @@', '-bye', ''].join(
        '\n',
      ),
    );
  });

  it('marks a missing newline at the end of a file', () => {
    expect(unifiedDiff({ x: 'a' }, [{ path: 'x', content: 'b' }])).toContain(
      '-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n',
    );
  });

  it('orders files by path and leaves out files that do not change', () => {
    const diff = unifiedDiff({ b: 'b\n', a: null, same: 'same\n' }, [
      { path: 'b', content: 'B\n' },
      { path: 'same', content: 'same\n' },
      { path: 'a', content: 'a\n' },
      { path: 'never', content: null },
    ]);
    expect(diff.split('\n').filter((line) => line.startsWith('diff --git'))).toEqual(['diff --git a/a b/a', 'diff --git a/b b/b']);
  });

  it('is a patch that git applies', async () => {
    const root = await temp.make();
    await writeTree(root, { 'edit.txt': 'one\ntwo\nthree\n', 'gone.txt': 'gone\n' });
    const patch = unifiedDiff({ 'edit.txt': 'one\ntwo\nthree\n', 'gone.txt': 'gone\n', 'dir/new.txt': null }, [
      { path: 'edit.txt', content: 'one\n2\nthree\n' },
      { path: 'gone.txt', content: null },
      { path: 'dir/new.txt', content: 'new\n' },
    ]);
    execFileSync('git', ['apply', '-'], { cwd: root, input: patch });
    expect(await readFile(join(root, 'edit.txt'), 'utf8')).toBe('one\n2\nthree\n');
    expect(await readFile(join(root, 'dir/new.txt'), 'utf8')).toBe('new\n');
    await expect(stat(join(root, 'gone.txt'))).rejects.toThrow();
  });
});
