import { anthropicProvider, type AnthropicProviderConfig } from '../../../functions/adapters/ai/anthropic-provider';
import { AiProviderError, AiProviderTransientError } from '../../../functions/core/ai/provider';
import { rejectionOf, startFakeModelServer, type FakeModelServer, type ScriptedResponse } from './fake-model-server';
import { planTask, validPlanJson } from './sample-tasks';

const apiKey = 'sk-ant-test-0123456789abcdef';

const message = (text: string, stopReason = 'end_turn'): ScriptedResponse => ({
  status: 200,
  body: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [
      { type: 'text', text: text.slice(0, 10) },
      { type: 'text', text: text.slice(10) },
    ],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 210, output_tokens: 33 },
  },
});

const apiError = (status: number, text: string, type = 'invalid_request_error'): ScriptedResponse => ({
  status,
  body: { type: 'error', error: { type, message: text } },
  headers: { 'retry-after-ms': '1' },
});

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const providerFor = async (script: Parameters<typeof startFakeModelServer>[0], config: Partial<AnthropicProviderConfig> = {}) => {
  server = await startFakeModelServer(script);
  return anthropicProvider({ apiKey, model: 'claude-sonnet-4-6', baseURL: server.url, timeoutMs: 5_000, maxRetries: 1, ...config });
};

describe('anthropic provider', () => {
  it('sends a Messages request with the key and model, and parses the text blocks and usage', async () => {
    const provider = await providerFor(() => message(`\`\`\`json\n${validPlanJson}\n\`\`\``));
    const result = await provider.run(planTask('Add a greeting'));

    expect(result).toEqual({
      output: JSON.parse(validPlanJson),
      usage: { input_tokens: 210, output_tokens: 33 },
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    const [request] = server?.requests ?? [];
    expect(request?.url).toBe('/v1/messages');
    // SDK 1.x sends the key as a bearer token; earlier versions sent x-api-key.
    expect([request?.headers['x-api-key'], request?.headers.authorization]).toContainEqual(
      expect.stringMatching(new RegExp(`^(Bearer )?${apiKey}$`)),
    );
    expect(request?.body).toMatchObject({
      model: 'claude-sonnet-4-6',
      max_tokens: 4_096,
      system: expect.stringContaining('ONE JSON object'),
      messages: [{ role: 'user', content: expect.stringContaining('Add a greeting') }],
    });
  });

  it('gets through a 429 with the SDK retry', async () => {
    const provider = await providerFor((count) =>
      count === 1 ? apiError(429, 'Rate limited', 'rate_limit_error') : message(validPlanJson),
    );
    await expect(provider.run(planTask('Add a greeting'))).resolves.toMatchObject({ provider: 'anthropic' });
    expect(server?.requests).toHaveLength(2);
  });

  it('reports a persistent 500 as transient once the SDK retries are spent', async () => {
    const provider = await providerFor(() => apiError(500, 'Internal error', 'api_error'));
    expect(await rejectionOf(provider.run(planTask('Add a greeting')))).toBeInstanceOf(AiProviderTransientError);
    expect(server?.requests).toHaveLength(2);
  });

  it('reports a 400 as AiProviderError without retrying, and never shows the key', async () => {
    const provider = await providerFor(() => apiError(400, `invalid x-api-key ${apiKey}`));
    const error = await rejectionOf(provider.run(planTask('Add a greeting')));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(/^anthropic: 400/);
    expect(error.message).not.toContain(apiKey);
    expect(server?.requests).toHaveLength(1);
  });

  it('asks once more after a malformed answer, then gives up with AiProviderError', async () => {
    const provider = await providerFor(() => message('{"summary": "x", "steps": "not a list"'));
    const error = await rejectionOf(provider.run(planTask('Add a greeting')));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(/^anthropic: The plan answer is not valid JSON/);
    expect(server?.requests).toHaveLength(2);
  });

  it('does not ask again when the answer was cut at the token limit', async () => {
    const provider = await providerFor(() => message('{"summary": "x", "steps": ["a', 'max_tokens'));
    const error = await rejectionOf(provider.run(planTask('Add a greeting')));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(/cut at the limit of 4096 output tokens/);
    expect(server?.requests).toHaveLength(1);
  });
});
