import OpenAI, { APIConnectionError, APIError, ConflictError, InternalServerError, OpenAIError, RateLimitError } from 'openai';
import type { AiProvider } from '../../core/ai/provider';
import { chatProvider, providerFailure, type ChatCompletion, type HostedModelConfig } from './chat-provider';

export type OpenAiProviderConfig = HostedModelConfig;

/** Retryable failures (after the SDK's own retries) become AiProviderTransientError, other API errors AiProviderError. */
const failureOf = (error: unknown, apiKey: string): unknown => {
  if (error instanceof APIConnectionError) return providerFailure('openai', true, error.message, apiKey);
  if (error instanceof APIError) {
    const transient =
      error instanceof RateLimitError || error instanceof InternalServerError || error instanceof ConflictError || error.status === 408;
    return providerFailure('openai', transient, error.message, apiKey);
  }
  if (error instanceof OpenAIError) return providerFailure('openai', false, error.message, apiKey);
  return error;
};

export const openAiCompletion = (config: OpenAiProviderConfig): ChatCompletion => {
  const client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, timeout: config.timeoutMs, maxRetries: config.maxRetries });
  return async ({ system, user, maxTokens }) => {
    try {
      const response = await client.chat.completions.create({
        model: config.model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        max_completion_tokens: maxTokens,
        response_format: { type: 'json_object' },
      });
      const choice = response.choices[0];
      if (choice?.message.refusal) throw providerFailure('openai', false, `the model refused: ${choice.message.refusal}`, config.apiKey);
      return {
        text: choice?.message.content ?? '',
        usage: { input_tokens: response.usage?.prompt_tokens ?? 0, output_tokens: response.usage?.completion_tokens ?? 0 },
        model: response.model || config.model,
        truncated: choice?.finish_reason === 'length',
      };
    } catch (error) {
      throw failureOf(error, config.apiKey);
    }
  };
};

/** OpenAI Chat Completions in JSON mode. */
export const openAiProvider = (config: OpenAiProviderConfig): AiProvider =>
  chatProvider('openai', openAiCompletion(config), { maxOutputTokens: config.maxOutputTokens });
