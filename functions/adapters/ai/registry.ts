/**
 * Which AI providers this deployment offers, and the provider for a name. Configured by
 * environment variables (the CDK stack sets them):
 *
 * - AI_PROVIDERS          comma list of enabled providers: local, bedrock, openai, anthropic
 *                         (e.g. `local` or `bedrock,anthropic`). Unset or empty: `local` only.
 * - BEDROCK_MODEL_ID      model or inference profile id; bedrock counts as configured only with it.
 *                         Region: AWS_REGION (set by Lambda), else the SDK's default chain.
 * - OPENAI_API_KEY_SECRET Secrets Manager ARN/name of the OpenAI key (raw, or JSON {"api_key": ...}),
 *   or OPENAI_API_KEY     the key itself (local use). One of them is required.
 * - OPENAI_MODEL          default gpt-4o-mini.   OPENAI_BASE_URL    optional.
 * - ANTHROPIC_API_KEY_SECRET / ANTHROPIC_API_KEY   as for OpenAI; one is required.
 * - ANTHROPIC_MODEL       default claude-sonnet-4-6.   ANTHROPIC_BASE_URL optional.
 * - AI_TIMEOUT_MS         per request, default 120000.
 * - AI_MAX_RETRIES        the SDKs' own retries on 429/5xx/timeouts, default 3.
 * - AI_MAX_OUTPUT_TOKENS  cap on an answer, default 4096 for a plan and 8192 for a change set.
 *
 * A provider named in AI_PROVIDERS without its required settings is not configured; unknown
 * names are ignored. Malformed numbers fall back to their defaults. SDKs and secrets are loaded
 * on a provider's first run, so a function that only uses `local` never loads them.
 */
import { AiProviderError, type AiProvider, type AiTask } from '../../core/ai/provider';
import { type AiEnvironment, configuredProviders, isProviderName, type ProviderName, setting } from './configured-providers';
import { type LocalProviderOptions, localProvider } from './local-provider';

export { type AiEnvironment, configuredProviders, isProviderName, providerNames, type ProviderName } from './configured-providers';

export const defaultModels = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-6' } as const;

const integer = (env: AiEnvironment, name: string, min: number): number | undefined => {
  const value = Number(setting(env, name) ?? Number.NaN);
  return Number.isInteger(value) && value >= min ? value : undefined;
};

export const aiSettings = (env: AiEnvironment = process.env) => ({
  timeoutMs: integer(env, 'AI_TIMEOUT_MS', 1) ?? 120_000,
  maxRetries: integer(env, 'AI_MAX_RETRIES', 0) ?? 3,
  /** Undefined: each task's default. */
  maxOutputTokens: integer(env, 'AI_MAX_OUTPUT_TOKENS', 1),
});

const apiKey = async (env: AiEnvironment, prefix: 'OPENAI' | 'ANTHROPIC'): Promise<string> => {
  const secretId = setting(env, `${prefix}_API_KEY_SECRET`);
  if (secretId === undefined) return setting(env, `${prefix}_API_KEY`) ?? '';
  const { readSecretApiKey } = await import('./secret-value');
  return readSecretApiKey(secretId);
};

const load = async (name: Exclude<ProviderName, 'local'>, env: AiEnvironment): Promise<AiProvider> => {
  const settings = aiSettings(env);
  switch (name) {
    case 'bedrock': {
      const { bedrockProvider } = await import('./bedrock-provider');
      return bedrockProvider({ ...settings, modelId: setting(env, 'BEDROCK_MODEL_ID') ?? '', region: setting(env, 'AWS_REGION') });
    }
    case 'openai': {
      const [{ openAiProvider }, key] = await Promise.all([import('./openai-provider'), apiKey(env, 'OPENAI')]);
      const model = setting(env, 'OPENAI_MODEL') ?? defaultModels.openai;
      return openAiProvider({ ...settings, apiKey: key, model, baseURL: setting(env, 'OPENAI_BASE_URL') });
    }
    case 'anthropic': {
      const [{ anthropicProvider }, key] = await Promise.all([import('./anthropic-provider'), apiKey(env, 'ANTHROPIC')]);
      const model = setting(env, 'ANTHROPIC_MODEL') ?? defaultModels.anthropic;
      return anthropicProvider({ ...settings, apiKey: key, model, baseURL: setting(env, 'ANTHROPIC_BASE_URL') });
    }
  }
};

/** Loads the real provider on the first run; a failed load (e.g. the secret) is tried again on the next. */
const lazyProvider = (name: ProviderName, loadProvider: () => Promise<AiProvider>): AiProvider => {
  let loading: Promise<AiProvider> | undefined;
  return {
    name,
    async run<T extends AiTask>(task: T) {
      const current = (loading ??= loadProvider());
      current.catch(() => {
        if (loading === current) loading = undefined;
      });
      return (await current).run(task);
    },
  };
};

const cache = new WeakMap<AiEnvironment, Map<ProviderName, AiProvider>>();

/**
 * The provider for a configured name, made once per environment object (the local one each time,
 * with the options given); throws AiProviderError otherwise.
 */
export const providerFor = (name: string, env: AiEnvironment = process.env, local: LocalProviderOptions = {}): AiProvider => {
  const configured = configuredProviders(env);
  if (!isProviderName(name) || !configured.includes(name)) {
    throw new AiProviderError(`AI provider "${name}" is not configured here; configured: ${configured.join(', ') || 'none'}`);
  }
  // The local provider is cheap and its options differ by function: the local runtime runs every
  // function in one process with one environment, so caching it would hand one function's options to another.
  if (name === 'local') return localProvider(local);
  const providers = cache.get(env) ?? new Map<ProviderName, AiProvider>();
  cache.set(env, providers);
  const existing = providers.get(name);
  if (existing) return existing;
  const provider = lazyProvider(name, () => load(name, env));
  providers.set(name, provider);
  return provider;
};
