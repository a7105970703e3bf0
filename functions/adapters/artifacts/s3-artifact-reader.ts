import { assertArtifactKey, type ArtifactStore } from '../../core/workspace/artifact-store';
import { regionOf, signedAwsSender, type SignedAwsOptions } from '../aws/signed-aws-request';

/**
 * Reads artifacts with one signed `GetObject` (SSE-KMS objects are decrypted by S3 for a role
 * allowed `kms:Decrypt`): the API and pages only ever read one, and `@aws-sdk/client-s3` is
 * 150 KB that every function reading a patch would otherwise load at init.
 *
 * The bucket's virtual-hosted endpoint in AWS; with `AWS_ENDPOINT_URL_S3` (or `AWS_ENDPOINT_URL`)
 * set, that endpoint with the bucket in the path, as the SDK does with `forcePathStyle`.
 */
export const s3ArtifactReader = (bucket: string, options: SignedAwsOptions = {}): Pick<ArtifactStore, 'get'> => {
  const env = options.env ?? process.env;
  const pathStyle = Boolean(env.AWS_ENDPOINT_URL_S3?.trim() || env.AWS_ENDPOINT_URL?.trim());
  const region = regionOf(env);
  const send = signedAwsSender(
    {
      signingName: 's3',
      endpointId: 'S3',
      defaultEndpoint: `https://${bucket}.s3.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`,
      uriEscapePath: false,
    },
    options,
  );
  return {
    async get(key) {
      assertArtifactKey(key);
      const objectPath = key.split('/').map(encodeURIComponent).join('/');
      try {
        const answer = await send({
          method: 'GET',
          path: pathStyle ? `/${bucket}/${objectPath}` : `/${objectPath}`,
          headers: {},
          expectStatus: 200,
        });
        return answer.bytes;
      } catch (error) {
        if (error instanceof Error && error.name === 'NoSuchKey') return null;
        throw error;
      }
    },
  };
};
