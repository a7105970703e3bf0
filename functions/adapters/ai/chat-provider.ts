import {
  AiProviderError,
  AiProviderTransientError,
  type AiAnswer,
  type AiProvider,
  type AiResult,
  type AiTask,
} from '../../core/ai/provider';
import { defaultMaxOutputTokens, parseAnswer, renderPrompt } from '../../core/ai/tasks';
import type { TokenUsage } from '../../core/workflows/stage-data';

/** One system + user exchange with a chat model; what each real provider's SDK adapter supplies. */
export interface ChatRequest {
  system: string;
  user: string;
  maxTokens: number;
}

export interface ChatReply {
  text: string;
  usage: TokenUsage;
  model: string;
  /** The model stopped at maxTokens, so the text is cut short. */
  truncated: boolean;
}

export type ChatCompletion = (request: ChatRequest) => Promise<ChatReply>;

/** How a hosted model's SDK client is set up: the same fields for every provider. */
export interface HostedModelConfig {
  apiKey: string;
  model: string;
  baseURL?: string | undefined;
  timeoutMs: number;
  /** Retries the SDK makes itself, with backoff, on 408/409/429/5xx and connection errors. */
  maxRetries: number;
  maxOutputTokens?: number | undefined;
}

export interface ChatProviderOptions {
  /** Overrides the per-task default cap on the answer's length. */
  maxOutputTokens?: number | undefined;
}

const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
});

/**
 * An AiProvider over a chat model: renders the task, parses the JSON reply. A reply that is not
 * JSON of the right shape is asked for once more, with what was wrong; a reply cut at the token
 * limit is not, since asking again with the same limit would be cut again.
 */
export const chatProvider = (name: string, complete: ChatCompletion, options: ChatProviderOptions = {}): AiProvider => ({
  name,
  async run<T extends AiTask>(task: T): Promise<AiResult<AiAnswer<T>>> {
    const prompt = renderPrompt(task);
    const maxTokens = options.maxOutputTokens ?? defaultMaxOutputTokens(task);
    const parse = (reply: ChatReply): AiAnswer<T> => {
      try {
        return parseAnswer(task, reply.text);
      } catch (error) {
        if (reply.truncated)
          throw new AiProviderError(`${name}: the ${task.kind} answer was cut at the limit of ${maxTokens} output tokens`);
        throw error;
      }
    };
    const first = await complete({ ...prompt, maxTokens });
    try {
      return { output: parse(first), usage: first.usage, provider: name, model: first.model };
    } catch (error) {
      if (!(error instanceof AiProviderError) || first.truncated) throw error;
      const user = `${prompt.user}\n\n## Note\nAn earlier answer to this request was rejected: ${error.message}. Answer again with ONE JSON object of the required shape.`;
      const second = await complete({ system: prompt.system, user, maxTokens });
      try {
        return { output: parse(second), usage: addUsage(first.usage, second.usage), provider: name, model: second.model };
      } catch (secondError) {
        if (secondError instanceof AiProviderError && !secondError.message.startsWith(`${name}:`)) {
          throw new AiProviderError(`${name}: ${secondError.message}`);
        }
        throw secondError;
      }
    }
  },
});

/** The error the workflow sees for an SDK failure, with the API key removed should the message echo it. */
export const providerFailure = (provider: string, transient: boolean, detail: string, apiKey: string): Error => {
  const message = `${provider}: ${apiKey === '' ? detail : detail.split(apiKey).join('[redacted]')}`;
  return transient ? new AiProviderTransientError(message) : new AiProviderError(message);
};
