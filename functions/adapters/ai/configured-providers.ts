/**
 * Which AI providers this deployment offers, from its environment (see registry.ts for the
 * variables). Kept apart from the registry so that a function that only names the configured
 * providers (workflow and review creation) carries no provider code.
 */
import { aiProviderNames } from '../../core/ai/provider';

export const providerNames = aiProviderNames;
export type ProviderName = (typeof providerNames)[number];
export type AiEnvironment = Readonly<Record<string, string | undefined>>;

export const setting = (env: AiEnvironment, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
};

export const isProviderName = (name: string): name is ProviderName => (providerNames as readonly string[]).includes(name);

const hasKey = (env: AiEnvironment, prefix: 'OPENAI' | 'ANTHROPIC'): boolean =>
  setting(env, `${prefix}_API_KEY_SECRET`) !== undefined || setting(env, `${prefix}_API_KEY`) !== undefined;

const isConfigured: Record<ProviderName, (env: AiEnvironment) => boolean> = {
  local: () => true,
  bedrock: (env) => setting(env, 'BEDROCK_MODEL_ID') !== undefined,
  openai: (env) => hasKey(env, 'OPENAI'),
  anthropic: (env) => hasKey(env, 'ANTHROPIC'),
};

/** The providers this deployment offers, in the order AI_PROVIDERS names them. */
export const configuredProviders = (env: AiEnvironment = process.env): ProviderName[] => {
  const listed = setting(env, 'AI_PROVIDERS')
    ?.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '') ?? ['local'];
  return [...new Set(listed)].filter(isProviderName).filter((name) => isConfigured[name](env));
};
