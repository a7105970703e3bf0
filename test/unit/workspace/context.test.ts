import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gatherContext, maxContextFiles, maxManifestBytes, readFiles } from '../../../functions/adapters/workspace/context';
import { tempDirs, writeTree } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const source = { repository: 'https://example.com/acme/app.git', branch: 'main', commit: 'a'.repeat(40) };

describe('gatherContext', () => {
  it('lists files, reads manifests and the README, and ranks languages', async () => {
    const root = await temp.make();
    await writeTree(root, {
      'package.json': '{"name":"app"}',
      'README.md': '# App\n',
      'tsconfig.json': '{}',
      'src/index.ts': 'export {};\n',
      'src/util.ts': 'export const x = 1;\n',
      'src/legacy.js': '',
      'packages/api/package.json': '{"name":"api"}',
      'packages/api/deep/go.mod': 'module too/deep\n',
      'services/py/pyproject.toml': '[project]\n',
      Dockerfile: 'FROM node:22\n',
      'node_modules/dep/package.json': '{}',
      '.git/config': '[core]\n',
      'vendor/sub/.git': 'gitdir: ../../.git/modules/sub\n',
      'odd\\name.ts': '',
      'data.json': '{}',
    });

    const context = await gatherContext(root, source);

    expect(context).toMatchObject(source);
    expect(context.files).toEqual([
      { path: 'Dockerfile', size: 13 },
      { path: 'README.md', size: 6 },
      { path: 'data.json', size: 2 },
      { path: 'package.json', size: 14 },
      { path: 'packages/api/deep/go.mod', size: 16 },
      { path: 'packages/api/package.json', size: 14 },
      { path: 'services/py/pyproject.toml', size: 10 },
      { path: 'src/index.ts', size: 11 },
      { path: 'src/legacy.js', size: 0 },
      { path: 'src/util.ts', size: 20 },
      { path: 'tsconfig.json', size: 2 },
    ]);
    expect(context.filesTruncated).toBe(false);
    expect(context.manifests).toEqual({
      'package.json': '{"name":"app"}',
      'tsconfig.json': '{}',
      Dockerfile: 'FROM node:22\n',
      'packages/api/package.json': '{"name":"api"}',
      'services/py/pyproject.toml': '[project]\n',
    });
    expect(context.readme).toBe('# App\n');
    expect(context.languages).toEqual(['TypeScript', 'JavaScript']);
  });

  it('finds a README whatever its case, and has none when there is none', async () => {
    const withReadme = await temp.make();
    await writeTree(withReadme, { readme: 'plain\n' });
    expect((await gatherContext(withReadme, source)).readme).toBe('plain\n');
    const without = await temp.make();
    await writeTree(without, { 'docs/README.md': 'not at the root' });
    expect((await gatherContext(without, source)).readme).toBeNull();
  });

  it('caps manifests and the README at 16 KiB', async () => {
    const root = await temp.make();
    await writeTree(root, { 'package.json': 'x'.repeat(maxManifestBytes + 100), 'README.md': `${'é'.repeat(9000)}` });
    const context = await gatherContext(root, source);
    expect(context.manifests['package.json']).toHaveLength(maxManifestBytes);
    // 16 KiB falls inside a two-byte character: the half character is dropped.
    expect(context.readme).toBe('é'.repeat(8192));
  });

  it(`keeps at most ${maxContextFiles} files, the shallowest first, and says it cut the list`, async () => {
    const root = await temp.make();
    await mkdir(join(root, 'a-deep'));
    for (let i = 0; i < maxContextFiles; i++) await writeFile(join(root, 'a-deep', `f${i}.ts`), '');
    await writeFile(join(root, 'z-top.ts'), '');
    const context = await gatherContext(root, source);
    expect(context.files).toHaveLength(maxContextFiles);
    expect(context.filesTruncated).toBe(true);
    expect(context.files.map((file) => file.path)).toContain('z-top.ts');
  });

  it('does not follow symbolic links', async () => {
    const root = await temp.make();
    const outside = await temp.make('outside-');
    await writeTree(outside, { 'secret.ts': 'secret', 'package.json': '{"secret":true}' });
    await symlink(outside, join(root, 'linked'));
    await symlink(join(outside, 'secret.ts'), join(root, 'file-link.ts'));
    const context = await gatherContext(root, source);
    expect(context.files).toEqual([]);
    expect(context.manifests).toEqual({});
  });
});

describe('readFiles', () => {
  it('reads the text files asked for and leaves out the rest', async () => {
    const root = await temp.make();
    const outside = await temp.make('outside-');
    await writeTree(outside, { 'secret.txt': 'secret' });
    await writeTree(root, {
      'src/a.ts': 'a\n',
      'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'big.txt': 'x'.repeat(200),
      'src/inner.txt': 'inner',
    });
    await symlink(join(outside, 'secret.txt'), join(root, 'escape.txt'));
    await symlink(join(root, 'src', 'inner.txt'), join(root, 'alias.txt'));

    const files = await readFiles(
      root,
      ['src/a.ts', 'src/a.ts', 'missing.ts', 'img.png', 'big.txt', '../x', '.git/config', 'escape.txt', 'alias.txt', 'src'],
      { maxFileBytes: 100, maxTotalBytes: 1000 },
    );

    expect(files).toEqual({ 'src/a.ts': 'a\n', 'alias.txt': 'inner' });
  });

  it('stops adding files at the total cap', async () => {
    const root = await temp.make();
    await writeTree(root, { a: 'x'.repeat(60), b: 'y'.repeat(60), c: 'z'.repeat(30) });
    expect(Object.keys(await readFiles(root, ['a', 'b', 'c'], { maxFileBytes: 100, maxTotalBytes: 100 }))).toEqual(['a', 'c']);
  });
});
