import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { artifactStoreFromEnvironment } from '../../../functions/adapters/artifacts/artifact-runtime';
import { tempDirs } from './temp-dir';

const temp = tempDirs();
afterAll(() => temp.removeAll());

describe('artifactStoreFromEnvironment', () => {
  it('uses S3 when ARTIFACT_BUCKET is set, even with a local folder configured', async () => {
    const s3 = mockClient(S3Client);
    s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => new Uint8Array([1]) } as never });
    const store = artifactStoreFromEnvironment({ ARTIFACT_BUCKET: 'bucket', LOCAL_ARTIFACT_DIR: '/nowhere' });
    expect(await store.get('a/b.json')).toEqual(Buffer.from([1]));
    expect(s3.commandCalls(GetObjectCommand)[0]?.args[0].input).toEqual({ Bucket: 'bucket', Key: 'a/b.json' });
    s3.restore();
  });

  it('uses the local folder otherwise', async () => {
    const dir = await temp.make();
    const stored = await artifactStoreFromEnvironment({ LOCAL_ARTIFACT_DIR: dir }).put('x/y.txt', 'y', 'text/plain');
    expect(stored.location).toBe(join(dir, 'x', 'y.txt'));
  });

  it('refuses to guess when neither is set', () => {
    expect(() => artifactStoreFromEnvironment({})).toThrow(/ARTIFACT_BUCKET .* LOCAL_ARTIFACT_DIR/);
  });
});
