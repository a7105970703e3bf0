/** Signs provenance. KMS in AWS, a key file in the local runtime; both ECDSA P-256 with SHA-256. */
export interface Signer {
  /** Names the key in the envelope's `keyid`: a KMS key id/ARN, or `local:<hex>`. */
  readonly keyId: string;
  /** A DER-encoded ECDSA P-256 signature over the SHA-256 digest of `message`. */
  sign(message: Buffer): Promise<Buffer>;
  /** The verifying key as a PEM SubjectPublicKeyInfo (`-----BEGIN PUBLIC KEY-----`). */
  publicKeyPem(): Promise<string>;
}
