import { createHash } from 'node:crypto';
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { s3ArtifactStore } from '../../../functions/adapters/artifacts/s3-artifact-store';
import { InvalidArtifactKeyError } from '../../../functions/core/workspace/artifact-store';

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());

const digest = (body: string) => createHash('sha256').update(body);

/** What GetObject's Body offers the adapter (the SDK's stream mixin). */
const bodyOf = (text: string) => ({ transformToByteArray: async () => new Uint8Array(Buffer.from(text)) });

describe('s3ArtifactStore', () => {
  it('puts with SSE-KMS and a SHA-256 checksum when given a key id', async () => {
    s3.on(PutObjectCommand).resolves({});
    const store = s3ArtifactStore(new S3Client({}), { bucket: 'artifacts', kmsKeyId: 'arn:aws:kms:eu-west-1:1:key/k' });

    const stored = await store.put('workflows/wf_1/plan.json', '{"a":1}', 'application/json');

    expect(stored).toEqual({ location: 's3://artifacts/workflows/wf_1/plan.json', sha256: digest('{"a":1}').digest('hex'), size: 7 });
    const [call] = s3.commandCalls(PutObjectCommand);
    expect(call?.args[0].input).toEqual({
      Bucket: 'artifacts',
      Key: 'workflows/wf_1/plan.json',
      Body: Buffer.from('{"a":1}'),
      ContentType: 'application/json',
      ContentLength: 7,
      ServerSideEncryption: 'aws:kms',
      SSEKMSKeyId: 'arn:aws:kms:eu-west-1:1:key/k',
      ChecksumAlgorithm: 'SHA256',
      ChecksumSHA256: digest('{"a":1}').digest('base64'),
    });
  });

  it('puts with SSE-S3 without a key id', async () => {
    s3.on(PutObjectCommand).resolves({});
    await s3ArtifactStore(new S3Client({}), { bucket: 'b' }).put('k.txt', Buffer.from('x'), 'text/plain');
    const input = s3.commandCalls(PutObjectCommand)[0]?.args[0].input;
    expect(input?.ServerSideEncryption).toBe('AES256');
    expect(input).not.toHaveProperty('SSEKMSKeyId');
  });

  it('gets a body, and null for NoSuchKey', async () => {
    s3.on(GetObjectCommand, { Bucket: 'b', Key: 'there.json' })
      .resolves({ Body: bodyOf('{"ok":true}') as never })
      .on(GetObjectCommand, { Bucket: 'b', Key: 'missing.json' })
      .rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }));
    const store = s3ArtifactStore(new S3Client({}), { bucket: 'b' });
    expect((await store.get('there.json'))?.toString('utf8')).toBe('{"ok":true}');
    expect(await store.get('missing.json')).toBeNull();
  });

  it('lets other errors through', async () => {
    s3.on(GetObjectCommand).rejects(
      new S3ServiceException({ name: 'AccessDenied', $fault: 'client', $metadata: {}, message: 'Access Denied' }),
    );
    await expect(s3ArtifactStore(new S3Client({}), { bucket: 'b' }).get('k')).rejects.toThrow('Access Denied');
  });

  it('refuses invalid keys before calling S3', async () => {
    const store = s3ArtifactStore(new S3Client({}), { bucket: 'b' });
    await expect(store.put('../x', 'x', 'text/plain')).rejects.toThrow(InvalidArtifactKeyError);
    expect(s3.calls()).toHaveLength(0);
  });
});
