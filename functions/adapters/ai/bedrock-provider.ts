import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import type { AiProvider } from '../../core/ai/provider';
import { chatProvider, providerFailure, type ChatCompletion } from './chat-provider';

export interface BedrockProviderConfig {
  modelId: string;
  /** Defaults to the SDK's chain (AWS_REGION in Lambda). */
  region?: string | undefined;
  /** Per attempt. */
  timeoutMs: number;
  /** Retries the SDK makes itself (maxAttempts = maxRetries + 1). */
  maxRetries: number;
  maxOutputTokens?: number | undefined;
}

const transientNames = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const transientCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ERR_HTTP2_STREAM_ERROR']);

interface AwsErrorFields {
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** Throttling, 5xx, timeouts and dropped connections (after the SDK's own retries) are transient; the rest (validation, access) are not. */
const failureOf = (error: unknown): unknown => {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & AwsErrorFields;
  const transient =
    transientNames.has(error.name) ||
    (typeof fields.code === 'string' && transientCodes.has(fields.code)) ||
    fields.$fault === 'server' ||
    (fields.$metadata?.httpStatusCode ?? 0) >= 500;
  return providerFailure('bedrock', transient, `${error.name}: ${error.message}`, '');
};

export const bedrockCompletion = (config: BedrockProviderConfig): ChatCompletion => {
  const client = new BedrockRuntimeClient({
    region: config.region,
    maxAttempts: config.maxRetries + 1,
    requestHandler: { requestTimeout: config.timeoutMs, disableConcurrentStreams: true },
  });
  return async ({ system, user, maxTokens }) => {
    const response = await client
      .send(
        new ConverseCommand({
          modelId: config.modelId,
          system: [{ text: system }],
          messages: [{ role: 'user', content: [{ text: user }] }],
          inferenceConfig: { maxTokens },
        }),
      )
      .catch((error: unknown) => {
        throw failureOf(error);
      });
    if (response.stopReason === 'guardrail_intervened' || response.stopReason === 'content_filtered') {
      throw providerFailure('bedrock', false, `the answer was blocked (${response.stopReason})`, '');
    }
    return {
      text: (response.output?.message?.content ?? []).flatMap((block) => (block.text === undefined ? [] : [block.text])).join(''),
      usage: { input_tokens: response.usage?.inputTokens ?? 0, output_tokens: response.usage?.outputTokens ?? 0 },
      model: config.modelId,
      truncated: response.stopReason === 'max_tokens',
    };
  };
};

/** Amazon Bedrock's Converse API, with the Lambda's IAM role. */
export const bedrockProvider = (config: BedrockProviderConfig): AiProvider =>
  chatProvider('bedrock', bedrockCompletion(config), { maxOutputTokens: config.maxOutputTokens });
