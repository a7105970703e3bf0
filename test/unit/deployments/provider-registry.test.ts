import { LambdaClient } from '@aws-sdk/client-lambda';
import { deploymentProviders, lambdaTargets, providerFor, providerNames } from '../../../functions/adapters/deployments/provider-registry';

const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-api';
const client = new LambdaClient({ region: 'eu-west-1' });

describe('deployment provider registry', () => {
  it('offers deploy-hook and aws-lambda', () => {
    const providers = deploymentProviders({}, { lambdaClient: client });
    expect(providerNames).toEqual(['deploy-hook', 'aws-lambda']);
    expect([...providers.keys()]).toEqual(['deploy-hook', 'aws-lambda']);
    expect([...providers.values()].map((provider) => provider.name)).toEqual(['deploy-hook', 'aws-lambda']);
  });

  it('reads the allowed Lambda targets from DEPLOY_LAMBDA_TARGETS', async () => {
    expect(lambdaTargets({ DEPLOY_LAMBDA_TARGETS: ` ${arn}, ,local-fn,${arn}` })).toEqual([arn, 'local-fn']);
    expect(lambdaTargets({})).toEqual([]);

    const providers = deploymentProviders({ DEPLOY_LAMBDA_TARGETS: `${arn},local-fn` }, { lambdaClient: client });
    const lambda = providerFor(providers, 'aws-lambda');
    if (!lambda.ok) throw new Error('aws-lambda is missing');
    const code = { s3_bucket: 'acme-builds', s3_key: 'k.zip' };
    expect(await lambda.provider.parseConfig({ function_name: 'shop-api', code }, { mode: 'live' })).toMatchObject({
      ok: true,
      config: { function_name: arn },
    });
    expect(await lambda.provider.parseConfig({ function_name: 'billing', code }, { mode: 'live' })).toEqual({
      ok: false,
      issues: [{ field: 'config.function_name', issue: `is not a deploy target of this deployment; allowed: ${arn}, local-fn` }],
    });
  });

  it('refuses every Lambda target when none is configured', async () => {
    const lambda = providerFor(deploymentProviders({ DEPLOY_LAMBDA_TARGETS: '' }, { lambdaClient: client }), 'aws-lambda');
    if (!lambda.ok) throw new Error('aws-lambda is missing');
    expect(
      await lambda.provider.parseConfig({ function_name: arn, code: { s3_bucket: 'acme-builds', s3_key: 'k.zip' } }, { mode: 'live' }),
    ).toMatchObject({
      ok: false,
      issues: [{ field: 'config.function_name', issue: 'is not a deploy target of this deployment; allowed: none' }],
    });
  });

  it('refuses a wildcard target when building the registry', () => {
    expect(() => deploymentProviders({ DEPLOY_LAMBDA_TARGETS: '*' }, { lambdaClient: client })).toThrow(TypeError);
  });

  it.each([['netlify'], [''], [undefined], [42]])('names the providers for an unknown provider %p', (name) => {
    expect(providerFor(deploymentProviders({}, { lambdaClient: client }), name)).toEqual({
      ok: false,
      issues: [{ field: 'provider', issue: 'must be one of deploy-hook, aws-lambda' }],
    });
  });

  it('builds its own Lambda client when none is given', () => {
    expect(providerFor(deploymentProviders({ AWS_REGION: 'eu-west-1' }), 'deploy-hook')).toMatchObject({ ok: true, name: 'deploy-hook' });
  });
});
