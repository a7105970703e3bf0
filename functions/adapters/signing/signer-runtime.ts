import type { Signer } from '../../core/provenance/signer';

export class SigningConfigurationError extends Error {
  override readonly name = 'SigningConfigurationError';
}

/**
 * KMS when SIGNING_KEY_ID (a key id, ARN or alias) is set, as in AWS; else the key file in
 * LOCAL_SIGNING_KEY_DIR, as in the local runtime. The KMS client is loaded only when used.
 */
export const signerFromEnvironment = async (env: Record<string, string | undefined> = process.env): Promise<Signer> => {
  const kmsKeyId = env.SIGNING_KEY_ID?.trim();
  if (kmsKeyId) {
    const [{ KMSClient }, { kmsSigner }] = await Promise.all([import('@aws-sdk/client-kms'), import('./kms-signer')]);
    return kmsSigner(new KMSClient({}), kmsKeyId);
  }
  const localDir = env.LOCAL_SIGNING_KEY_DIR?.trim();
  if (localDir) {
    const { localKeySigner } = await import('./local-key-signer');
    return localKeySigner(localDir);
  }
  throw new SigningConfigurationError(
    'No provenance signing key is configured: set SIGNING_KEY_ID to a KMS key (ECC_NIST_P256, SIGN_VERIFY), or LOCAL_SIGNING_KEY_DIR to a directory for a local key.',
  );
};
