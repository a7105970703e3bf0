import { GetObjectCommand, NoSuchKey, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { assertArtifactKey, sha256Hex, toBuffer, type ArtifactStore } from '../../core/workspace/artifact-store';

export interface S3ArtifactStoreOptions {
  bucket: string;
  /** Encrypt with this KMS key (SSE-KMS); without it, S3-managed keys (SSE-S3). */
  kmsKeyId?: string;
}

const isNoSuchKey = (error: unknown): boolean =>
  error instanceof NoSuchKey || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NoSuchKey');

export const s3ArtifactStore = (client: S3Client, { bucket, kmsKeyId }: S3ArtifactStoreOptions): ArtifactStore => ({
  async put(key, body, contentType) {
    assertArtifactKey(key);
    const bytes = toBuffer(body);
    const sha256 = sha256Hex(bytes);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
        ...(kmsKeyId ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKeyId } : { ServerSideEncryption: 'AES256' }),
        // S3 checks the body against the digest we computed, so what is stored is what we hashed.
        ChecksumAlgorithm: 'SHA256',
        ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
      }),
    );
    return { location: `s3://${bucket}/${key}`, sha256, size: bytes.length };
  },

  async get(key) {
    assertArtifactKey(key);
    try {
      const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!response.Body) return Buffer.alloc(0);
      return Buffer.from(await response.Body.transformToByteArray());
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw error;
    }
  },
});
