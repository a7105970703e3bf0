import { createHash, createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { Signer } from '../../core/provenance/signer';

/** KMS signs a RAW message of at most 4096 bytes; longer ones are hashed here and sent as a DIGEST. */
export const kmsRawMessageLimit = 4096;

/** What KMS is asked to sign: the same ECDSA_SHA_256 signature either way. */
export const kmsSignInput = (keyId: string, message: Buffer) =>
  message.length <= kmsRawMessageLimit
    ? { KeyId: keyId, Message: message, MessageType: 'RAW' as const, SigningAlgorithm: 'ECDSA_SHA_256' as const }
    : {
        KeyId: keyId,
        Message: createHash('sha256').update(message).digest(),
        MessageType: 'DIGEST' as const,
        SigningAlgorithm: 'ECDSA_SHA_256' as const,
      };

/** An asymmetric KMS key of spec ECC_NIST_P256 with usage SIGN_VERIFY; `keyId` is its id, ARN or alias. */
export const kmsSigner = (client: KMSClient, keyId: string): Signer => {
  let publicKey: Promise<string> | undefined;

  const fetchPublicKeyPem = async (): Promise<string> => {
    const { PublicKey, KeySpec } = await client.send(new GetPublicKeyCommand({ KeyId: keyId }));
    if (KeySpec !== undefined && KeySpec !== 'ECC_NIST_P256') throw new Error(`KMS key ${keyId} is ${KeySpec}, not ECC_NIST_P256`);
    if (!PublicKey) throw new Error(`KMS returned no public key for ${keyId}`);
    return createPublicKey({ key: Buffer.from(PublicKey), format: 'der', type: 'spki' })
      .export({ format: 'pem', type: 'spki' })
      .toString();
  };

  return {
    keyId,
    async sign(message) {
      const { Signature } = await client.send(new SignCommand(kmsSignInput(keyId, message)));
      if (!Signature) throw new Error(`KMS returned no signature for ${keyId}`);
      return Buffer.from(Signature);
    },
    publicKeyPem() {
      // Cached for the life of the process; a failed fetch is forgotten so the next call retries.
      publicKey ??= fetchPublicKeyPem().catch((error: unknown) => {
        publicKey = undefined;
        throw error;
      });
      return publicKey;
    },
  };
};
