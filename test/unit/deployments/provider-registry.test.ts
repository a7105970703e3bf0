import { LambdaClient } from '@aws-sdk/client-lambda';
import { deploymentConfigs } from '../../../functions/adapters/deployments/provider-configs';
import { deploymentProviders, lambdaTargets, providerFor, providerNames } from '../../../functions/adapters/deployments/provider-registry';

const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-api';
/** The same function name in another (test) account. */
const testArn = 'arn:aws:lambda:eu-west-1:210987654321:function:shop-api';
const client = new LambdaClient({ region: 'eu-west-1' });

describe('deployment provider registry', () => {
  it('offers deploy-hook and aws-lambda', () => {
    const providers = deploymentProviders({}, { lambdaClient: client });
    expect(providerNames).toEqual(['deploy-hook', 'aws-lambda']);
    expect([...providers.keys()]).toEqual(['deploy-hook', 'aws-lambda']);
    expect([...providers.values()].map((provider) => provider.name)).toEqual(['deploy-hook', 'aws-lambda']);
  });

  it('reads the allowed Lambda targets from DEPLOY_LAMBDA_TARGETS (live) and DEPLOY_LAMBDA_TEST_TARGETS (test)', async () => {
    expect(lambdaTargets({ DEPLOY_LAMBDA_TARGETS: ` ${arn}, ,local-fn,${arn}` })).toEqual({ live: [arn, 'local-fn'], test: [] });
    expect(lambdaTargets({ DEPLOY_LAMBDA_TEST_TARGETS: ` ${testArn}, ,local-fn,${testArn}` })).toEqual({
      live: [],
      test: [testArn, 'local-fn'],
    });
    expect(lambdaTargets({})).toEqual({ live: [], test: [] });

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
      issues: [{ field: 'config.function_name', issue: `is not a live-mode deploy target of this deployment; allowed: ${arn}, local-fn` }],
    });
  });

  it('gives test mode only DEPLOY_LAMBDA_TEST_TARGETS and live mode only DEPLOY_LAMBDA_TARGETS, in the registry and in the API configs alike', async () => {
    const env = { DEPLOY_LAMBDA_TARGETS: `${arn},shared-fn`, DEPLOY_LAMBDA_TEST_TARGETS: `${testArn},shared-fn` };
    const lambda = providerFor(deploymentProviders(env, { lambdaClient: client }), 'aws-lambda');
    if (!lambda.ok) throw new Error('aws-lambda is missing');
    const apiConfigs = deploymentConfigs(env).get('aws-lambda');
    if (!apiConfigs) throw new Error('aws-lambda is missing');
    const code = { s3_bucket: 'acme-builds', s3_key: 'k.zip' };
    for (const parser of [lambda.provider, apiConfigs]) {
      // The same bare name stands for the live function in live mode and the test one in test mode.
      expect(await parser.parseConfig({ function_name: 'shop-api', code }, { mode: 'live' })).toMatchObject({
        ok: true,
        config: { function_name: arn },
      });
      expect(await parser.parseConfig({ function_name: 'shop-api', code }, { mode: 'test' })).toMatchObject({
        ok: true,
        config: { function_name: testArn },
      });
      expect(await parser.parseConfig({ function_name: arn, code }, { mode: 'test' })).toEqual({
        ok: false,
        issues: [
          { field: 'config.function_name', issue: `is not a test-mode deploy target of this deployment; allowed: ${testArn}, shared-fn` },
        ],
      });
      expect(await parser.parseConfig({ function_name: testArn, code }, { mode: 'live' })).toEqual({
        ok: false,
        issues: [
          { field: 'config.function_name', issue: `is not a live-mode deploy target of this deployment; allowed: ${arn}, shared-fn` },
        ],
      });
      for (const mode of ['live', 'test'] as const) {
        expect(await parser.parseConfig({ function_name: 'shared-fn', code }, { mode })).toMatchObject({
          ok: true,
          config: { function_name: 'shared-fn' },
        });
      }
    }
  });

  it('refuses every Lambda target when none is configured', async () => {
    const lambda = providerFor(deploymentProviders({ DEPLOY_LAMBDA_TARGETS: '' }, { lambdaClient: client }), 'aws-lambda');
    if (!lambda.ok) throw new Error('aws-lambda is missing');
    expect(
      await lambda.provider.parseConfig({ function_name: arn, code: { s3_bucket: 'acme-builds', s3_key: 'k.zip' } }, { mode: 'live' }),
    ).toMatchObject({
      ok: false,
      issues: [{ field: 'config.function_name', issue: 'is not a live-mode deploy target of this deployment; allowed: none' }],
    });
  });

  it('refuses every test-mode Lambda target when DEPLOY_LAMBDA_TEST_TARGETS is unset, whatever the live targets', async () => {
    const env = { DEPLOY_LAMBDA_TARGETS: `${arn},local-fn` };
    const lambda = providerFor(deploymentProviders(env, { lambdaClient: client }), 'aws-lambda');
    if (!lambda.ok) throw new Error('aws-lambda is missing');
    const apiConfigs = deploymentConfigs(env).get('aws-lambda');
    if (!apiConfigs) throw new Error('aws-lambda is missing');
    const code = { s3_bucket: 'acme-builds', s3_key: 'k.zip' };
    for (const parser of [lambda.provider, apiConfigs]) {
      for (const function_name of [arn, 'shop-api', 'local-fn']) {
        expect(await parser.parseConfig({ function_name, code }, { mode: 'test' })).toEqual({
          ok: false,
          issues: [{ field: 'config.function_name', issue: 'is not a test-mode deploy target of this deployment; allowed: none' }],
        });
      }
    }
  });

  it.each([{ DEPLOY_LAMBDA_TARGETS: '*' }, { DEPLOY_LAMBDA_TEST_TARGETS: '*' }, { DEPLOY_LAMBDA_TEST_TARGETS: `${arn}:*` }])(
    'refuses a wildcard target when building the registry and the API configs (%p)',
    (env) => {
      expect(() => deploymentProviders(env, { lambdaClient: client })).toThrow(TypeError);
      expect(() => deploymentConfigs(env)).toThrow(TypeError);
    },
  );

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
