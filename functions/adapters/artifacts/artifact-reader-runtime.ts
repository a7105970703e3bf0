import type { ArtifactStore } from '../../core/workspace/artifact-store';
import { ArtifactStoreConfigurationError } from './configuration-error';
import { fileArtifactStore } from './file-artifact-store';
import { s3ArtifactReader } from './s3-artifact-reader';

/**
 * What the API and the pages need of the artifact store: reading. In AWS one signed GetObject on
 * ARTIFACT_BUCKET (no S3 client), locally the runtime's folder (LOCAL_ARTIFACT_DIR).
 */
export const artifactReaderFromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): Pick<ArtifactStore, 'get'> => {
  const bucket = env.ARTIFACT_BUCKET;
  if (bucket) return s3ArtifactReader(bucket, { env });
  const folder = env.LOCAL_ARTIFACT_DIR;
  if (folder) return fileArtifactStore(folder);
  throw new ArtifactStoreConfigurationError(
    'No artifact store is configured: set ARTIFACT_BUCKET (AWS) or LOCAL_ARTIFACT_DIR (local runtime)',
  );
};
