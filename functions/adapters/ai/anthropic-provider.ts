import Anthropic, {
  AnthropicError,
  APIConnectionError,
  APIError,
  ConflictError,
  InternalServerError,
  RateLimitError,
  RequestTimeoutError,
} from '@anthropic-ai/sdk';
import type { AiProvider } from '../../core/ai/provider';
import { chatProvider, providerFailure, type ChatCompletion, type HostedModelConfig } from './chat-provider';

export type AnthropicProviderConfig = HostedModelConfig;

/** Retryable failures (after the SDK's own retries) become AiProviderTransientError, other API errors AiProviderError. */
const failureOf = (error: unknown, apiKey: string): unknown => {
  if (error instanceof APIConnectionError) return providerFailure('anthropic', true, error.message, apiKey);
  if (error instanceof APIError) {
    const transient =
      error instanceof RateLimitError ||
      error instanceof InternalServerError ||
      error instanceof ConflictError ||
      error instanceof RequestTimeoutError;
    return providerFailure('anthropic', transient, error.message, apiKey);
  }
  if (error instanceof AnthropicError) return providerFailure('anthropic', false, error.message, apiKey);
  return error;
};

export const anthropicCompletion = (config: AnthropicProviderConfig): ChatCompletion => {
  const client = new Anthropic({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
  return async ({ system, user, maxTokens }) => {
    try {
      const message = await client.messages.create({
        model: config.model,
        max_tokens: maxTokens,
        system,
        messages: [{ role: 'user', content: user }],
      });
      if (message.stop_reason === 'refusal') throw providerFailure('anthropic', false, 'the model refused to answer', config.apiKey);
      return {
        text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
        usage: { input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens },
        model: message.model || config.model,
        truncated: message.stop_reason === 'max_tokens',
      };
    } catch (error) {
      throw failureOf(error, config.apiKey);
    }
  };
};

/** Anthropic Messages API. */
export const anthropicProvider = (config: AnthropicProviderConfig): AiProvider =>
  chatProvider('anthropic', anthropicCompletion(config), { maxOutputTokens: config.maxOutputTokens });
