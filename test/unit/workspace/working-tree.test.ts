import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workingTreeAt } from '../../../functions/adapters/workspace/working-tree';
import { UnsafePathError } from '../../../functions/core/workspace/repository-path';
import { tempDirs } from './temp-dir';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

describe('the working tree on the local file system', () => {
  it('reads a file of the tree, also through a link that stays inside it; null when there is none', async () => {
    const dir = await dirs.make('tree-');
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
    await symlink('src/a.ts', join(dir, 'alias.ts'));
    const tree = workingTreeAt(dir, async () => {});
    expect(await tree.readText('src/a.ts')).toBe('export const a = 1;\n');
    expect(await tree.readText('alias.ts')).toBe('export const a = 1;\n');
    expect(await tree.readText('src/missing.ts')).toBeNull();
    expect(await tree.readText('src/a.ts/below')).toBeNull();
  });

  it('refuses unsafe paths and links that lead out of the tree', async () => {
    const outside = await dirs.make('outside-');
    await writeFile(join(outside, 'secret.txt'), 'not for the AI\n');
    const dir = await dirs.make('tree-');
    await symlink(join(outside, 'secret.txt'), join(dir, 'innocent.ts'));
    const tree = workingTreeAt(dir, async () => {});
    await expect(tree.readText('innocent.ts')).rejects.toThrow(UnsafePathError);
    await expect(tree.readText('../secret.txt')).rejects.toThrow(UnsafePathError);
    await expect(tree.readText('.git/config')).rejects.toThrow(UnsafePathError);
  });

  it('tells regular files from folders and links', async () => {
    const dir = await dirs.make('tree-');
    await writeFile(join(dir, 'Dockerfile'), 'FROM scratch\n');
    await mkdir(join(dir, 'folder'));
    await symlink('Dockerfile', join(dir, 'link'));
    const tree = workingTreeAt(dir, async () => {});
    expect([await tree.isFile('Dockerfile'), await tree.isFile('folder'), await tree.isFile('link'), await tree.isFile('none')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
