import { readFile, readdir, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { applyChangeSet, InvalidChangeSetError } from '../../../functions/adapters/workspace/apply-change-set';
import { tempDirs, writeTree } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('applyChangeSet', () => {
  it('creates, edits and deletes files and returns what they held before', async () => {
    const root = await temp.make();
    await writeTree(root, { 'src/a.ts': 'old a\n', 'docs/gone.md': 'bye\n', 'keep.txt': 'kept\n' });

    const { originals } = await applyChangeSet(root, [
      { path: 'src/a.ts', content: 'new a\n' },
      { path: 'src/deep/new/b.ts', content: 'b\n' },
      { path: 'docs/gone.md', content: null },
      { path: 'never-existed.txt', content: null },
    ]);

    expect(originals).toEqual({
      'src/a.ts': 'old a\n',
      'src/deep/new/b.ts': null,
      'docs/gone.md': 'bye\n',
      'never-existed.txt': null,
    });
    expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('new a\n');
    expect(await readFile(join(root, 'src/deep/new/b.ts'), 'utf8')).toBe('b\n');
    expect(await exists(join(root, 'docs/gone.md'))).toBe(false);
    expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('kept\n');
  });

  it('lets a deleted file make room for a folder of the same name', async () => {
    const root = await temp.make();
    await writeTree(root, { lib: 'was a file' });
    await applyChangeSet(root, [
      { path: 'lib', content: null },
      { path: 'lib/index.ts', content: 'export {};\n' },
    ]);
    expect(await readFile(join(root, 'lib/index.ts'), 'utf8')).toBe('export {};\n');
  });

  it('keeps a file called __proto__ as an ordinary key', async () => {
    const root = await temp.make();
    const { originals } = await applyChangeSet(root, [{ path: '__proto__', content: 'x' }]);
    expect(Object.keys(originals)).toEqual(['__proto__']);
    expect(originals['__proto__']).toBeNull();
  });

  it.each([
    ['../x', '".." segment'],
    ['/abs', 'absolute'],
    ['.git/config', 'inside .git'],
    ['a/.git/hooks/post-checkout', 'inside .git'],
  ])('refuses %s and writes nothing', async (path, issue) => {
    const root = await temp.make();
    const attempt = applyChangeSet(root, [
      { path: 'fine.txt', content: 'would be written' },
      { path, content: 'evil' },
    ]);
    await expect(attempt).rejects.toThrow(InvalidChangeSetError);
    await expect(attempt).rejects.toThrow(issue);
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses a write through a link that leads out of the root, before writing anything', async () => {
    const root = await temp.make();
    const outside = await temp.make('outside-');
    await symlink(outside, join(root, 'escape'));
    const attempt = applyChangeSet(root, [
      { path: 'first.txt', content: 'x' },
      { path: 'escape/pwned.txt', content: 'evil' },
    ]);
    await expect(attempt).rejects.toMatchObject({ name: 'InvalidChangeSetError' });
    expect(await readdir(outside)).toEqual([]);
    expect(await exists(join(root, 'first.txt'))).toBe(false);
  });

  it('refuses duplicates, a file used as a folder, and a folder replaced by a file', async () => {
    const root = await temp.make();
    await writeTree(root, { 'dir/x.txt': 'x', 'file.txt': 'f' });
    const problems = async (changes: Parameters<typeof applyChangeSet>[1]) => {
      try {
        await applyChangeSet(root, changes);
      } catch (error) {
        return (error as InvalidChangeSetError).problems.map((p) => `${p.path}: ${p.issue}`);
      }
      throw new Error('expected a refusal');
    };
    expect(
      await problems([
        { path: 'a', content: '1' },
        { path: 'a', content: '2' },
      ]),
    ).toEqual(['a: appears more than once']);
    expect(
      await problems([
        { path: 'a', content: '1' },
        { path: 'a/b', content: '2' },
      ]),
    ).toEqual(['a/b: needs a to be a folder, but it is written as a file']);
    expect(await problems([{ path: 'dir', content: 'not a folder' }])).toEqual(['dir: is a folder']);
    expect(await problems([{ path: 'file.txt/inner', content: '?' }])).toEqual([
      'file.txt/inner: needs file.txt to be a folder, but it is a file',
    ]);
    expect(await readFile(join(root, 'file.txt'), 'utf8')).toBe('f');
  });
});
