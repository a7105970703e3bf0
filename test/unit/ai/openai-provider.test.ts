import { openAiProvider, type OpenAiProviderConfig } from '../../../functions/adapters/ai/openai-provider';
import { AiProviderError, AiProviderTransientError } from '../../../functions/core/ai/provider';
import { rejectionOf, startFakeModelServer, type FakeModelServer, type ScriptedResponse } from './fake-model-server';
import { changeSetTask, validChangeSetJson } from './sample-tasks';

const apiKey = 'sk-test-0123456789abcdef';

const completion = (content: string): ScriptedResponse => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 },
  },
});

const apiError = (status: number, message: string, type = 'invalid_request_error'): ScriptedResponse => ({
  status,
  body: { error: { message, type, param: null, code: null } },
  headers: { 'retry-after-ms': '1' },
});

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const providerFor = async (script: Parameters<typeof startFakeModelServer>[0], config: Partial<OpenAiProviderConfig> = {}) => {
  server = await startFakeModelServer(script);
  return openAiProvider({ apiKey, model: 'gpt-4o-mini', baseURL: `${server.url}/v1`, timeoutMs: 5_000, maxRetries: 1, ...config });
};

describe('openai provider', () => {
  it('sends a JSON-mode chat completion with the key and model, and parses the answer and usage', async () => {
    const provider = await providerFor(() => completion(validChangeSetJson));
    const result = await provider.run(changeSetTask('Change a'));

    expect(result).toEqual({
      output: JSON.parse(validChangeSetJson),
      usage: { input_tokens: 321, output_tokens: 45 },
      provider: 'openai',
      model: 'gpt-4o-mini-2024-07-18',
    });
    const [request] = server?.requests ?? [];
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.body).toMatchObject({ model: 'gpt-4o-mini', response_format: { type: 'json_object' }, max_completion_tokens: 8_192 });
    expect(request?.body.messages).toEqual([
      { role: 'system', content: expect.stringContaining('ONE JSON object') },
      { role: 'user', content: expect.stringContaining('Change a') },
    ]);
  });

  it('gets through a 429 with the SDK retry', async () => {
    const provider = await providerFor((count) =>
      count === 1 ? apiError(429, 'Rate limit reached', 'rate_limit_error') : completion(validChangeSetJson),
    );
    await expect(provider.run(changeSetTask('Change a'))).resolves.toMatchObject({ provider: 'openai' });
    expect(server?.requests).toHaveLength(2);
  });

  it('reports a persistent 500 as transient once the SDK retries are spent', async () => {
    const provider = await providerFor(() => apiError(500, 'The server had an error', 'server_error'));
    expect(await rejectionOf(provider.run(changeSetTask('Change a')))).toBeInstanceOf(AiProviderTransientError);
    expect(server?.requests).toHaveLength(2);
  });

  // Under Jest's VM the SDK sees the abort as a plain connection error rather than its timeout error; both are transient.
  it('reports a timeout as transient', async () => {
    const provider = await providerFor(() => ({ status: 200, body: {}, hang: true }), { timeoutMs: 50, maxRetries: 0 });
    const error = await rejectionOf(provider.run(changeSetTask('Change a')));
    expect(error).toBeInstanceOf(AiProviderTransientError);
  });

  it('reports a 400 as AiProviderError without retrying, and never shows the key', async () => {
    const provider = await providerFor(() => apiError(400, `Incorrect API key provided: ${apiKey}.`));
    const error = await rejectionOf(provider.run(changeSetTask('Change a')));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(/^openai: 400/);
    expect(error.message).not.toContain(apiKey);
    expect(error.message).toContain('[redacted]');
    expect(server?.requests).toHaveLength(1);
  });

  it('asks once more after a malformed answer, then gives up with AiProviderError', async () => {
    const provider = await providerFor(() =>
      completion(JSON.stringify({ summary: 'x', files: [{ path: '../etc/passwd', content: 'x' }] })),
    );
    const error = await rejectionOf(provider.run(changeSetTask('Change a')));
    expect(error).toBeInstanceOf(AiProviderError);
    expect(error.message).toMatch(/^openai: .*files\.0\.path/);
    expect(server?.requests).toHaveLength(2);
    expect(JSON.stringify(server?.requests[1]?.body.messages)).toContain('An earlier answer to this request was rejected');
  });

  it('takes the corrected second answer and adds up the usage of both', async () => {
    const provider = await providerFor((count) => completion(count === 1 ? 'Sure! Here is the change.' : validChangeSetJson));
    const result = await provider.run(changeSetTask('Change a'));
    expect(result.usage).toEqual({ input_tokens: 642, output_tokens: 90 });
  });
});
