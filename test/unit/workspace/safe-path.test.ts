import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repositoryPathProblem, UnsafePathError } from '../../../functions/core/workspace/repository-path';
import { resolveForWrite, resolveInside } from '../../../functions/adapters/workspace/safe-path';
import { tempDirs } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

describe('repositoryPathProblem', () => {
  it.each(['src/a.ts', 'README.md', 'a/b/c/.gitignore', '.github/workflows/ci.yml', 'x..y/z', '.gitkeep'])('accepts %s', (path) => {
    expect(repositoryPathProblem(path)).toBeNull();
  });

  it.each([
    ['', 'is empty'],
    ['../x', '".." segment'],
    ['a/../../x', '".." segment'],
    ['/abs', 'absolute'],
    ['a/./b', '"." segment'],
    ['a//b', 'empty segment'],
    ['a/', 'empty segment'],
    ['.git', 'inside .git'],
    ['.git/config', 'inside .git'],
    ['sub/.GIT/hooks/pre-commit', 'inside .git'],
    ['a\0b', 'NUL'],
    ['a\\b', 'backslash'],
    ['x'.repeat(1025), 'longer than 1024'],
  ])('refuses %j', (path, issue) => {
    expect(repositoryPathProblem(path)).toContain(issue);
  });

  it('accepts a path of exactly 1024 characters', () => {
    expect(repositoryPathProblem('x'.repeat(1024))).toBeNull();
  });
});

describe('resolveInside', () => {
  it('joins a valid path under the root', () => {
    expect(resolveInside('/work/tree', 'src/a.ts')).toBe(join('/work/tree', 'src', 'a.ts'));
  });

  it('throws UnsafePathError for an invalid path', () => {
    expect(() => resolveInside('/work/tree', '../etc/passwd')).toThrow(UnsafePathError);
  });
});

describe('resolveForWrite', () => {
  it('accepts new files in new folders', async () => {
    const root = await temp.make();
    await expect(resolveForWrite(root, 'a/b/c.txt')).resolves.toBe(join(root, 'a', 'b', 'c.txt'));
  });

  it('accepts a link to a folder inside the root', async () => {
    const root = await temp.make();
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'alias'));
    await expect(resolveForWrite(root, 'alias/x.txt')).resolves.toBe(join(root, 'alias', 'x.txt'));
  });

  it('refuses a parent folder that links outside the root', async () => {
    const root = await temp.make();
    const outside = await temp.make('outside-');
    await symlink(outside, join(root, 'escape'));
    await expect(resolveForWrite(root, 'escape/x.txt')).rejects.toThrow('outside the repository');
    await expect(resolveForWrite(root, 'escape/deeper/x.txt')).rejects.toThrow(UnsafePathError);
  });

  it('refuses a file that is itself a link', async () => {
    const root = await temp.make();
    const outside = await temp.make('outside-');
    await writeFile(join(outside, 'secret'), 's');
    await symlink(join(outside, 'secret'), join(root, 'link'));
    await expect(resolveForWrite(root, 'link')).rejects.toThrow('symbolic link');
  });

  it('refuses a dangling link on the way', async () => {
    const root = await temp.make();
    await symlink('/nonexistent-target-for-test', join(root, 'dangling'));
    await expect(resolveForWrite(root, 'dangling/x')).rejects.toThrow(UnsafePathError);
  });
});
