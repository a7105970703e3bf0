import type { ArtifactStore } from '../../core/workspace/artifact-store';
import { fileArtifactStore } from './file-artifact-store';

import { ArtifactStoreConfigurationError } from './configuration-error';

export { ArtifactStoreConfigurationError };

/** The S3 store, built on first use so that functions that never store artifacts never load the S3 client. */
const lazyS3Store = (bucket: string, kmsKeyId: string | undefined): ArtifactStore => {
  let store: Promise<ArtifactStore> | undefined;
  const resolve = (): Promise<ArtifactStore> =>
    (store ??= (async () => {
      const [{ S3Client }, { s3ArtifactStore }] = await Promise.all([import('@aws-sdk/client-s3'), import('./s3-artifact-store')]);
      return s3ArtifactStore(new S3Client({}), { bucket, ...(kmsKeyId ? { kmsKeyId } : {}) });
    })());
  return {
    put: async (key, body, contentType) => (await resolve()).put(key, body, contentType),
    get: async (key) => (await resolve()).get(key),
  };
};

/**
 * S3 in AWS (ARTIFACT_BUCKET, encrypted with ARTIFACT_KMS_KEY_ID when set); a folder in the local
 * runtime (LOCAL_ARTIFACT_DIR). Neither is a configuration error, never a silent fallback.
 */
export const artifactStoreFromEnvironment = (env: Readonly<Record<string, string | undefined>> = process.env): ArtifactStore => {
  const bucket = env.ARTIFACT_BUCKET;
  if (bucket) return lazyS3Store(bucket, env.ARTIFACT_KMS_KEY_ID || undefined);
  const folder = env.LOCAL_ARTIFACT_DIR;
  if (folder) return fileArtifactStore(folder);
  throw new ArtifactStoreConfigurationError(
    'No artifact store is configured: set ARTIFACT_BUCKET (AWS) or LOCAL_ARTIFACT_DIR (local runtime)',
  );
};
