import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileArtifactStore } from '../../../functions/adapters/artifacts/file-artifact-store';
import { artifactKeyProblem, InvalidArtifactKeyError } from '../../../functions/core/workspace/artifact-store';
import { tempDirs } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('artifact keys', () => {
  it.each(['workflows/wf_123/plan.json', 'workflows/acct_1/live/wf_1/bundle.tar.gz', 'a-b/c.d'])('accepts %s', (key) => {
    expect(artifactKeyProblem(key)).toBeNull();
  });

  it.each(['', '../x', 'a/../b', 'a/..', '/abs', 'a/', 'a//b', 'a/./b', 'with space', 'ünï', 'a\\b', 'a?b', 'x'.repeat(1025)])(
    'refuses %j',
    (key) => {
      expect(artifactKeyProblem(key)).not.toBeNull();
    },
  );
});

describe('fileArtifactStore', () => {
  it('stores and returns bodies, with location, size and digest', async () => {
    const root = await temp.make();
    const store = fileArtifactStore(root);
    const stored = await store.put('workflows/wf_1/plan.json', '{"a":1}', 'application/json');
    expect(stored).toEqual({ location: join(root, 'workflows', 'wf_1', 'plan.json'), sha256: sha256('{"a":1}'), size: 7 });
    expect(isAbsolute(stored.location)).toBe(true);
    expect(await readFile(stored.location, 'utf8')).toBe('{"a":1}');
    expect((await store.get('workflows/wf_1/plan.json'))?.toString('utf8')).toBe('{"a":1}');

    const binary = Buffer.from([0, 1, 2, 255]);
    await store.put('workflows/wf_1/plan.json', binary, 'application/octet-stream');
    expect(await store.get('workflows/wf_1/plan.json')).toEqual(binary);
  });

  it('returns null for what was never stored', async () => {
    const store = fileArtifactStore(await temp.make());
    expect(await store.get('workflows/wf_1/none.json')).toBeNull();
    await store.put('workflows/file', 'x', 'text/plain');
    expect(await store.get('workflows/file/below')).toBeNull();
  });

  it('leaves no temporary files behind, even with concurrent writers of one key', async () => {
    const root = await temp.make();
    const store = fileArtifactStore(root);
    const bodies = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(10_000));
    await Promise.all(bodies.map((body) => store.put('w/same.txt', body, 'text/plain')));
    expect(await readdir(join(root, 'w'))).toEqual(['same.txt']);
    expect(bodies).toContain((await store.get('w/same.txt'))?.toString('utf8'));
  });

  it('refuses keys that could leave its folder', async () => {
    const store = fileArtifactStore(await temp.make());
    await expect(store.put('../escape.txt', 'x', 'text/plain')).rejects.toThrow(InvalidArtifactKeyError);
    await expect(store.get('/etc/passwd')).rejects.toThrow(InvalidArtifactKeyError);
  });
});
