import { ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';

/**
 * Which AI providers a deployment offers, from context (`cdk deploy -c aiProviders=bedrock,anthropic
 * -c bedrockModelId=… -c anthropicApiKeySecret=…`). A provider without its settings is not offered.
 */
export interface AiSettings {
  providers: string[];
  bedrockModelId?: string;
  openaiApiKeySecret?: string;
  openaiModel?: string;
  anthropicApiKeySecret?: string;
  anthropicModel?: string;
}

export const defaultBedrockModelId = 'anthropic.claude-3-5-haiku-20241022-v1:0';

export const aiSettingsFromContext = (scope: Construct): AiSettings => {
  const context = (name: string): string | undefined => {
    const value: unknown = scope.node.tryGetContext(name);
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  return {
    providers: (context('aiProviders') ?? 'bedrock')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    bedrockModelId: context('bedrockModelId') ?? defaultBedrockModelId,
    openaiApiKeySecret: context('openaiApiKeySecret'),
    openaiModel: context('openaiModel'),
    anthropicApiKeySecret: context('anthropicApiKeySecret'),
    anthropicModel: context('anthropicModel'),
  };
};

/** The variables `functions/adapters/ai/registry.ts` reads. */
export const aiEnvironment = (ai: AiSettings): Record<string, string> => {
  const env: Record<string, string> = { AI_PROVIDERS: ai.providers.join(',') };
  if (ai.providers.includes('bedrock') && ai.bedrockModelId) env.BEDROCK_MODEL_ID = ai.bedrockModelId;
  if (ai.providers.includes('openai') && ai.openaiApiKeySecret) env.OPENAI_API_KEY_SECRET = ai.openaiApiKeySecret;
  if (ai.providers.includes('openai') && ai.openaiModel) env.OPENAI_MODEL = ai.openaiModel;
  if (ai.providers.includes('anthropic') && ai.anthropicApiKeySecret) env.ANTHROPIC_API_KEY_SECRET = ai.anthropicApiKeySecret;
  if (ai.providers.includes('anthropic') && ai.anthropicModel) env.ANTHROPIC_MODEL = ai.anthropicModel;
  return env;
};

export const secretArn = (scope: Construct, name: string): string =>
  Stack.of(scope).formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${name}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });

/**
 * A system-defined cross-Region inference profile is a model id behind a geography's prefix
 * (`us.anthropic.claude-sonnet-4-…`, `global.…`). Newer models are offered only through one.
 */
const inferenceProfilePrefix = /^(us|us-gov|eu|apac|ca|jp|au|global)\.(?=[a-z0-9-]+\.)/;

/**
 * What invoking `modelId` needs, and no more: a model in this Region; or a profile of this account
 * and Region with its one model in whichever Region the profile routes to (and, for a global
 * profile, the model's Region-less ARN, which Bedrock also checks).
 */
export const bedrockModelArns = (scope: Construct, modelId: string): string[] => {
  if (modelId.startsWith('arn:'))
    throw new Error(
      `bedrockModelId takes a model or inference profile id (anthropic.claude-…, us.anthropic.claude-…), not an ARN: "${modelId}"`,
    );
  const stack = Stack.of(scope);
  const model = (region: string | undefined, id: string) =>
    stack.formatArn({
      service: 'bedrock',
      region,
      account: '',
      resource: 'foundation-model',
      resourceName: id,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  const profile = inferenceProfilePrefix.exec(modelId);
  if (!profile) return [model(undefined, modelId)];
  const underlying = modelId.slice(profile[0].length);
  return [
    stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId, arnFormat: ArnFormat.SLASH_RESOURCE_NAME }),
    model('*', underlying),
    ...(profile[1] === 'global' ? [model('', underlying)] : []),
  ];
};

/** Only the configured model and the configured secrets. */
export const grantAi = (fn: ServiceFunction, ai: AiSettings): void => {
  if (ai.providers.includes('bedrock') && ai.bedrockModelId) {
    fn.allow(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: bedrockModelArns(fn, ai.bedrockModelId) }));
  }
  const secrets = [
    ai.providers.includes('openai') ? ai.openaiApiKeySecret : undefined,
    ai.providers.includes('anthropic') ? ai.anthropicApiKeySecret : undefined,
  ].filter((name): name is string => name !== undefined);
  if (secrets.length > 0) {
    fn.allow(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secrets.map((name) => secretArn(fn, name)) }));
  }
};
