import { createHash } from 'node:crypto';

export interface StoredArtifact {
  /** `s3://bucket/key` in AWS, an absolute file path locally. */
  location: string;
  /** Lowercase hex SHA-256 of the body. */
  sha256: string;
  size: number;
}

/** Where workflow stages keep what they produce (context, plan, patch, bundle, ...). */
export interface ArtifactStore {
  put(key: string, body: Buffer | string, contentType: string): Promise<StoredArtifact>;
  /** The body, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
}

export const maxArtifactKeyLength = 1024;

export class InvalidArtifactKeyError extends Error {
  constructor(
    readonly key: string,
    issue: string,
  ) {
    super(`Invalid artifact key ${JSON.stringify(key.slice(0, 200))}: ${issue}`);
    this.name = 'InvalidArtifactKeyError';
  }
}

/** Why `key` is not an acceptable artifact key (e.g. `workflows/wf_123/plan.json`), or null. */
export const artifactKeyProblem = (key: string): string | null => {
  if (key.length === 0) return 'is empty';
  if (key.length > maxArtifactKeyLength) return `is longer than ${maxArtifactKeyLength} characters`;
  if (!/^[A-Za-z0-9._/-]+$/.test(key)) return 'may hold only letters, digits, ".", "_", "-" and "/"';
  if (key.includes('..')) return 'contains ".."';
  if (key.startsWith('/') || key.endsWith('/')) return 'starts or ends with "/"';
  if (key.split('/').some((segment) => segment === '' || segment === '.')) return 'has an empty or "." segment';
  return null;
};

export const assertArtifactKey = (key: string): void => {
  const problem = artifactKeyProblem(key);
  if (problem) throw new InvalidArtifactKeyError(key, problem);
};

export const toBuffer = (body: Buffer | string): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

export const sha256Hex = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
