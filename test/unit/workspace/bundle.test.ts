import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createBundle, readBundle } from '../../../functions/core/workspace/bundle';
import { InvalidChangeSetError } from '../../../functions/core/workspace/validate-change-set';
import { tempDirs } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const longPath = `${'very-long-folder-name/'.repeat(12)}file.ts`;

const input = () => ({
  changes: {
    summary: 'demo',
    files: [
      { path: 'src/b.ts', content: 'b\n' },
      { path: 'src/a.ts', content: 'a — ünïcode\n' },
      { path: 'gone.txt', content: null },
      { path: longPath, content: 'long\n' },
    ],
  },
  diff: 'diff --git a/src/a.ts b/src/a.ts\n',
  extra: { 'provenance.dsse.json': '{"payloadType":"x"}', 'verification.json': Buffer.from('{}') },
});

describe('createBundle', () => {
  it('holds the written files, the patch and the extras', async () => {
    const files = await readBundle(await createBundle(input()));
    expect([...files.keys()]).toEqual([
      'change.patch',
      'changes/src/a.ts',
      'changes/src/b.ts',
      `changes/${longPath}`,
      'provenance.dsse.json',
      'verification.json',
    ]);
    expect(files.get('changes/src/a.ts')?.toString('utf8')).toBe('a — ünïcode\n');
    expect(files.get(`changes/${longPath}`)?.toString('utf8')).toBe('long\n');
    expect(files.get('change.patch')?.toString('utf8')).toBe('diff --git a/src/a.ts b/src/a.ts\n');
    expect(files.get('provenance.dsse.json')?.toString('utf8')).toBe('{"payloadType":"x"}');
  });

  it('gives the same bytes for the same change, whatever the order of its files', async () => {
    const reordered = input();
    reordered.changes.files.reverse();
    expect((await createBundle(reordered)).equals(await createBundle(input()))).toBe(true);
    expect((await createBundle({ ...input(), diff: 'other' })).equals(await createBundle(input()))).toBe(false);
  });

  it('accepts a bare list of file changes', async () => {
    expect((await createBundle({ ...input(), changes: input().changes.files })).equals(await createBundle(input()))).toBe(true);
  });

  it('reads back what the system tar writes, pax names and all, and only its regular files', async () => {
    const dir = await temp.make();
    await writeFile(join(dir, 'a.txt'), 'a\n');
    await mkdir(join(dir, 'deep', ...longPath.split('/').slice(0, -1)), { recursive: true });
    await writeFile(join(dir, 'deep', ...longPath.split('/')), 'long\n');
    const path = join(dir, 'made.tar.gz');
    execFileSync('tar', ['--format=pax', '-czf', path, '-C', dir, 'a.txt', 'deep']);
    const files = await readBundle(await readFile(path));
    expect(Object.fromEntries([...files].map(([name, body]) => [name, body.toString('utf8')]))).toEqual({
      'a.txt': 'a\n',
      [`deep/${longPath}`]: 'long\n',
    });
  });

  it('is a tar.gz that the system tar lists and extracts', async () => {
    const dir = await temp.make();
    const path = join(dir, 'bundle.tar.gz');
    await writeFile(path, await createBundle(input()));
    const listed = execFileSync('tar', ['-tzf', path], { encoding: 'utf8' }).trim().split('\n');
    expect(listed.sort()).toEqual(
      ['change.patch', `changes/${longPath}`, 'changes/src/a.ts', 'changes/src/b.ts', 'provenance.dsse.json', 'verification.json'].sort(),
    );
    const out = await temp.make();
    execFileSync('tar', ['-xzf', path, '-C', out]);
    expect(await readFile(join(out, 'changes', ...longPath.split('/')), 'utf8')).toBe('long\n');
    expect(await readFile(join(out, 'changes/src/a.ts'), 'utf8')).toBe('a — ünïcode\n');
    const verbose = execFileSync('tar', ['-tvzf', path], { encoding: 'utf8' });
    expect(verbose).toMatch(/-rw-r--r-- 0\/0 .* 1970-01-01/);
  });

  it('refuses unsafe paths and extras that clash with the change', async () => {
    await expect(createBundle({ ...input(), changes: [{ path: '../evil', content: 'x' }] })).rejects.toThrow(InvalidChangeSetError);
    await expect(createBundle({ ...input(), extra: { 'change.patch': 'x' } })).rejects.toThrow('reserved');
    await expect(createBundle({ ...input(), extra: { 'changes/x': 'x' } })).rejects.toThrow('reserved');
    await expect(createBundle({ ...input(), extra: { '/abs': 'x' } })).rejects.toThrow('absolute');
  });
});
