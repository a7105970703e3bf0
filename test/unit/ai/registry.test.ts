import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { aiSettings, configuredProviders, providerFor } from '../../../functions/adapters/ai/registry';
import { AiProviderError } from '../../../functions/core/ai/provider';
import { startFakeModelServer } from './fake-model-server';
import { planTask, validPlanJson } from './sample-tasks';

describe('configuredProviders', () => {
  it.each([
    [{}, ['local']],
    [{ AI_PROVIDERS: '' }, ['local']],
    [{ AI_PROVIDERS: 'local' }, ['local']],
    [{ AI_PROVIDERS: 'bedrock,anthropic' }, []],
    [{ AI_PROVIDERS: 'bedrock,anthropic', BEDROCK_MODEL_ID: 'anthropic.claude-3-5-sonnet-20240620-v1:0' }, ['bedrock']],
    [
      { AI_PROVIDERS: ' Anthropic , bedrock,anthropic', BEDROCK_MODEL_ID: 'm', ANTHROPIC_API_KEY_SECRET: 'anthropic-key' },
      ['anthropic', 'bedrock'],
    ],
    [{ AI_PROVIDERS: 'openai,local', OPENAI_API_KEY: 'sk-1' }, ['openai', 'local']],
    [{ AI_PROVIDERS: 'openai', OPENAI_MODEL: 'gpt-4o' }, []],
    [{ AI_PROVIDERS: 'gemini,local' }, ['local']],
  ])('for %j is %j', (env, expected) => {
    expect(configuredProviders(env)).toEqual(expected);
  });
});

describe('aiSettings', () => {
  it('has defaults and reads valid overrides', () => {
    expect(aiSettings({})).toEqual({ timeoutMs: 120_000, maxRetries: 3, maxOutputTokens: undefined });
    expect(aiSettings({ AI_TIMEOUT_MS: '5000', AI_MAX_RETRIES: '0', AI_MAX_OUTPUT_TOKENS: '2048' })).toEqual({
      timeoutMs: 5_000,
      maxRetries: 0,
      maxOutputTokens: 2_048,
    });
    expect(aiSettings({ AI_TIMEOUT_MS: 'soon', AI_MAX_RETRIES: '-1' })).toMatchObject({ timeoutMs: 120_000, maxRetries: 3 });
  });
});

describe('providerFor', () => {
  it('throws AiProviderError naming the configured providers for an unknown or unconfigured name', () => {
    expect(() => providerFor('gemini', {})).toThrow(AiProviderError);
    expect(() => providerFor('openai', { AI_PROVIDERS: 'openai,local' })).toThrow(
      'AI provider "openai" is not configured here; configured: local',
    );
  });

  it('makes each real provider once per environment', () => {
    const env = { AI_PROVIDERS: 'openai', OPENAI_API_KEY: 'sk-test' };
    expect(providerFor('openai', env)).toBe(providerFor('openai', env));
  });

  it("gives the local provider the function's test writer, even where another function of the same process asked first", async () => {
    // The local runtime runs every function in one process with one environment.
    const env = {};
    await expect(providerFor('local', env).run(planTask('Add a greeting'))).resolves.toMatchObject({ provider: 'local' });
    const written = { summary: 'Wrote nothing', files: [] };
    const local = providerFor('local', env, { writeTests: async () => written });
    const task = { kind: 'tests' as const, framework: 'jest' as const, instructions: null, moduleType: 'commonjs' as const, sources: [] };
    await expect(local.run(task)).resolves.toMatchObject({ provider: 'local', output: written });
  });

  it('loads a real provider on first run, with its key from Secrets Manager', async () => {
    const secrets = mockClient(SecretsManagerClient);
    secrets
      .on(GetSecretValueCommand, { SecretId: 'anthropic-key' })
      .resolves({ SecretString: JSON.stringify({ api_key: 'sk-ant-from-secret' }) });
    const server = await startFakeModelServer(() => ({
      status: 200,
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [{ type: 'text', text: validPlanJson }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 7 },
      },
    }));
    try {
      const env = {
        AI_PROVIDERS: 'anthropic',
        ANTHROPIC_API_KEY_SECRET: 'anthropic-key',
        ANTHROPIC_MODEL: 'claude-haiku-4-5',
        ANTHROPIC_BASE_URL: server.url,
        AI_MAX_RETRIES: '0',
      };
      const provider = providerFor('anthropic', env);
      expect(provider.name).toBe('anthropic');
      await expect(provider.run(planTask('Add a greeting'))).resolves.toMatchObject({
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        usage: { input_tokens: 5, output_tokens: 7 },
      });
      expect(JSON.stringify(server.requests[0]?.headers)).toContain('sk-ant-from-secret');
      expect(server.requests[0]?.body.model).toBe('claude-haiku-4-5');
    } finally {
      await server.close();
      secrets.restore();
    }
  });
});
