import { App, Stack } from 'aws-cdk-lib';
import { bedrockModelArns } from '../../lib/constructs/ai-settings';
import { joined } from './template-helpers';

const arnsFor = (modelId: string): string[] => {
  const stack = new Stack(new App(), 'Grant', { env: { account: '111122223333', region: 'eu-west-1' } });
  return bedrockModelArns(stack, modelId).map((arn) => joined(stack.resolve(arn)));
};

describe('what invoking the configured Bedrock model is granted', () => {
  it('a model id: that model in the stack’s Region only', () => {
    expect(arnsFor('anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual([
      'arn:${AWS::Partition}:bedrock:eu-west-1::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0',
    ]);
  });

  it('a geography’s inference profile: the profile of this account and Region, and its one model wherever the profile routes', () => {
    expect(arnsFor('eu.anthropic.claude-sonnet-4-20250514-v1:0')).toEqual([
      'arn:${AWS::Partition}:bedrock:eu-west-1:111122223333:inference-profile/eu.anthropic.claude-sonnet-4-20250514-v1:0',
      'arn:${AWS::Partition}:bedrock:*::foundation-model/anthropic.claude-sonnet-4-20250514-v1:0',
    ]);
    expect(arnsFor('apac.amazon.nova-pro-v1:0')[1]).toBe('arn:${AWS::Partition}:bedrock:*::foundation-model/amazon.nova-pro-v1:0');
  });

  it('a global inference profile: the model’s Region-less ARN too', () => {
    expect(arnsFor('global.anthropic.claude-sonnet-4-5-20250929-v1:0')).toEqual([
      'arn:${AWS::Partition}:bedrock:eu-west-1:111122223333:inference-profile/global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:${AWS::Partition}:bedrock:*::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:${AWS::Partition}:bedrock:::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
  });

  it('refuses an ARN at synth, which would otherwise grant a model that does not exist', () => {
    expect(() => arnsFor('arn:${AWS::Partition}:bedrock:eu-west-1::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0')).toThrow(
      /takes a model or inference profile id/,
    );
  });
});
