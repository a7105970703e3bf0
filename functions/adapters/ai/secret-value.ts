import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { AiProviderError, AiProviderTransientError } from '../../core/ai/provider';

/** Reads an API key from Secrets Manager by ARN or name. The value is never logged nor put in an error. */
export type SecretReader = (secretId: string) => Promise<string>;

/** A SecretString holds either the raw key or JSON with an `api_key` field. */
export const apiKeyOf = (secretString: string, secretId: string): string => {
  const text = secretString.trim();
  if (!text.startsWith('{')) {
    if (text === '') throw new AiProviderError(`Secret ${secretId} is empty`);
    return text;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AiProviderError(`Secret ${secretId} looks like JSON but does not parse`);
  }
  const key = (parsed as { api_key?: unknown }).api_key;
  if (typeof key !== 'string' || key.trim() === '') throw new AiProviderError(`Secret ${secretId} has no "api_key" string`);
  return key.trim();
};

const failureOf = (error: unknown, secretId: string): Error => {
  const name = error instanceof Error ? error.name : 'Error';
  const fault = (error as { $fault?: unknown } | null)?.$fault;
  const transient = fault === 'server' || name === 'ThrottlingException' || name === 'InternalServiceError' || name === 'TimeoutError';
  const message = `Secret ${secretId} could not be read (${name})`;
  return transient ? new AiProviderTransientError(message) : new AiProviderError(message);
};

/** Each secret is fetched once per reader (one reader per process); a failed fetch is not cached. */
export const secretReader = (client: SecretsManagerClient = new SecretsManagerClient({})): SecretReader => {
  const cache = new Map<string, Promise<string>>();
  return (secretId) => {
    const cached = cache.get(secretId);
    if (cached) return cached;
    const value = client.send(new GetSecretValueCommand({ SecretId: secretId })).then(
      (secret) => {
        if (secret.SecretString === undefined) throw new AiProviderError(`Secret ${secretId} has no SecretString`);
        return apiKeyOf(secret.SecretString, secretId);
      },
      (error: unknown) => {
        throw failureOf(error, secretId);
      },
    );
    cache.set(secretId, value);
    value.catch(() => cache.delete(secretId));
    return value;
  };
};

let processReader: SecretReader | undefined;

/** The process-wide reader, with its client made on first use. */
export const readSecretApiKey: SecretReader = (secretId) => (processReader ??= secretReader())(secretId);
