import { s3ArtifactReader } from '../../../functions/adapters/artifacts/s3-artifact-reader';
import { artifactReaderFromEnvironment } from '../../../functions/adapters/artifacts/artifact-reader-runtime';
import { ArtifactStoreConfigurationError } from '../../../functions/adapters/artifacts/configuration-error';
import { AwsServiceError } from '../../../functions/adapters/aws/signed-aws-request';
import { InvalidArtifactKeyError } from '../../../functions/core/workspace/artifact-store';
import { startAwsEndpointServer, testCredentials as credentials, verifiedSignature } from '../fakes/aws-endpoint-server';

const key = 'findings/acc_01JD2Q8X4B6V3C1N0M9K8J7H6G/test/fnd_01JD2Q8X4B6V3C1N0M9K8J7H6G.patch';
const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

describe('s3ArtifactReader', () => {
  it('reads an object with one GetObject signed with SigV4 for s3, the bytes as stored', async () => {
    const stored = Buffer.concat([Buffer.from('diff --git a/x b/x\n'), Buffer.from([0xff, 0x00, 0xfe])]);
    const server = await startAwsEndpointServer([{ status: 200, headers: { 'content-type': 'text/x-diff' }, body: stored }]);
    try {
      const reader = s3ArtifactReader('svc-artifacts', {
        env: { AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_S3: server.endpoint },
        credentials,
      });
      expect(await reader.get(key)).toEqual(stored);

      const [request] = server.received;
      expect([request?.method, request?.path]).toEqual(['GET', `/svc-artifacts/${key}`]);
      // S3 needs the payload's hash; the signature is what S3 would compute for this request.
      expect(request?.headers['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      const signed = await verifiedSignature(request!, { service: 's3', region: 'eu-west-1' });
      expect(signed).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-content-sha256']));
    } finally {
      await server.close();
    }
  });

  it('answers null for a missing object, throws S3 refusals by their code, and retries S3 slowing it down', async () => {
    const server = await startAwsEndpointServer((request) =>
      request.path.endsWith('gone.patch')
        ? { status: 404, body: s3Error('NoSuchKey', 'The specified key does not exist.') }
        : request.path.endsWith('denied.patch')
          ? { status: 403, body: s3Error('AccessDenied', 'Access Denied') }
          : { status: 503, body: s3Error('SlowDown', 'Please reduce your request rate.') },
    );
    try {
      const reader = s3ArtifactReader('svc-artifacts', { env: { AWS_ENDPOINT_URL: server.endpoint }, credentials, baseDelayMs: 1 });
      expect(await reader.get('findings/gone.patch')).toBeNull();

      const denied = await reader.get('findings/denied.patch').catch((error: unknown) => error);
      expect(denied).toBeInstanceOf(AwsServiceError);
      expect(denied).toMatchObject({ name: 'AccessDenied', message: 'Access Denied', statusCode: 403 });

      const before = server.received.length;
      await expect(reader.get('findings/busy.patch')).rejects.toMatchObject({ name: 'SlowDown', statusCode: 503 });
      expect(server.received.length - before).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('refuses a key outside the store before any request', async () => {
    const server = await startAwsEndpointServer();
    try {
      const reader = s3ArtifactReader('svc-artifacts', { env: { AWS_ENDPOINT_URL_S3: server.endpoint }, credentials });
      await expect(reader.get('../other/secret')).rejects.toBeInstanceOf(InvalidArtifactKeyError);
      expect(server.received).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it("is chosen by ARTIFACT_BUCKET, the runtime's folder without it, and neither is a configuration error", () => {
    expect(artifactReaderFromEnvironment({ LOCAL_ARTIFACT_DIR: '/tmp/none' })).toHaveProperty('get');
    expect(artifactReaderFromEnvironment({ ARTIFACT_BUCKET: 'svc-artifacts' })).toHaveProperty('get');
    expect(() => artifactReaderFromEnvironment({})).toThrow(ArtifactStoreConfigurationError);
  });
});
