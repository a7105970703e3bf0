import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
  type ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { bedrockProvider } from '../../../functions/adapters/ai/bedrock-provider';
import { AiProviderError, AiProviderTransientError } from '../../../functions/core/ai/provider';
import { rejectionOf } from './fake-model-server';
import { changeSetTask, validChangeSetJson } from './sample-tasks';

const bedrock = mockClient(BedrockRuntimeClient);
const modelId = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const provider = bedrockProvider({ modelId, region: 'eu-west-1', timeoutMs: 5_000, maxRetries: 1 });

const converseOutput = (text: string, stopReason: ConverseCommandOutput['stopReason'] = 'end_turn'): ConverseCommandOutput => ({
  output: { message: { role: 'assistant', content: [{ text }] } },
  stopReason,
  usage: { inputTokens: 400, outputTokens: 60, totalTokens: 460 },
  metrics: { latencyMs: 900 },
  $metadata: {},
});

beforeEach(() => bedrock.reset());

describe('bedrock provider', () => {
  it('sends a Converse request for the configured model, and parses the answer and usage', async () => {
    bedrock.on(ConverseCommand).resolves(converseOutput(validChangeSetJson));
    const result = await provider.run(changeSetTask('Change a'));

    expect(result).toEqual({
      output: JSON.parse(validChangeSetJson),
      usage: { input_tokens: 400, output_tokens: 60 },
      provider: 'bedrock',
      model: modelId,
    });
    const input = bedrock.commandCalls(ConverseCommand)[0]?.args[0].input;
    expect(input).toMatchObject({
      modelId,
      system: [{ text: expect.stringContaining('ONE JSON object') }],
      messages: [{ role: 'user', content: [{ text: expect.stringContaining('Change a') }] }],
      inferenceConfig: { maxTokens: 8_192 },
    });
  });

  it.each([
    ['ThrottlingException', new ThrottlingException({ message: 'Too many requests', $metadata: {} })],
    ['ServiceUnavailableException', new ServiceUnavailableException({ message: 'Unavailable', $metadata: {} })],
    ['a request timeout', Object.assign(new Error('Request timed out'), { name: 'TimeoutError' })],
  ])('reports %s as transient', async (_, error) => {
    bedrock.on(ConverseCommand).rejects(error);
    const failure = await rejectionOf(provider.run(changeSetTask('Change a')));
    expect(failure).toBeInstanceOf(AiProviderTransientError);
    expect(failure.message).toContain(error.name);
  });

  it.each([
    ['ValidationException', new ValidationException({ message: 'The provided model identifier is invalid.', $metadata: {} })],
    ['AccessDeniedException', new AccessDeniedException({ message: 'You do not have access to the model', $metadata: {} })],
  ])('reports %s as AiProviderError', async (_, error) => {
    bedrock.on(ConverseCommand).rejects(error);
    expect(await rejectionOf(provider.run(changeSetTask('Change a')))).toBeInstanceOf(AiProviderError);
  });

  it('rejects a malformed answer after asking once more', async () => {
    bedrock.on(ConverseCommand).resolves(converseOutput('{"summary": "x", "files": [{"path": ".git/config", "content": ""}]}'));
    expect(await rejectionOf(provider.run(changeSetTask('Change a')))).toBeInstanceOf(AiProviderError);
    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(2);
  });
});
