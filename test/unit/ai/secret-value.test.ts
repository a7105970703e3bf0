import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { secretReader } from '../../../functions/adapters/ai/secret-value';
import { AiProviderError, AiProviderTransientError } from '../../../functions/core/ai/provider';
import { rejectionOf } from './fake-model-server';

const secrets = mockClient(SecretsManagerClient);
beforeEach(() => secrets.reset());

const secretId = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:openai-key';

describe('secretReader', () => {
  it('reads a raw key once per process', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: secretId }).resolves({ SecretString: 'sk-raw-key\n' });
    const read = secretReader(new SecretsManagerClient({ region: 'eu-west-1' }));
    expect(await read(secretId)).toBe('sk-raw-key');
    expect(await read(secretId)).toBe('sk-raw-key');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads api_key from a JSON secret', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ api_key: 'sk-json-key', note: 'x' }) });
    expect(await secretReader(new SecretsManagerClient({ region: 'eu-west-1' }))(secretId)).toBe('sk-json-key');
  });

  it('rejects JSON without api_key, without showing the value', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ key: 'sk-hidden' }) });
    const error = await rejectionOf(secretReader(new SecretsManagerClient({ region: 'eu-west-1' }))(secretId));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).not.toContain('sk-hidden');
  });

  it('maps a missing secret to AiProviderError and throttling to transient, and does not cache failures', async () => {
    const read = secretReader(new SecretsManagerClient({ region: 'eu-west-1' }));
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: 'not found', $metadata: {} }))
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: 'sk-later' });
    expect(await rejectionOf(read(secretId))).toBeInstanceOf(AiProviderError);
    expect(await rejectionOf(read(secretId))).toBeInstanceOf(AiProviderTransientError);
    expect(await read(secretId)).toBe('sk-later');
  });
});
