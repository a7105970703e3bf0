import { awsLambdaConfigs } from '../../../functions/adapters/deployments/aws-lambda-config';
import type { Mode } from '../../../functions/core/tenancy';

/**
 * The `aws-lambda` config parser by mode: a test-mode key (`svc_test_`, handed to CI and dev tools)
 * may name only a function of the test-mode list, a live key only one of the live list, so test
 * mode never replaces the code of a live function. A function in both lists is allowed in both.
 */
const liveArn = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-api';
const liveWorker = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-worker';
/** The same function name as `liveArn`, in the test account. */
const testArn = 'arn:aws:lambda:eu-west-1:210987654321:function:shop-api';
const sharedArn = 'arn:aws:lambda:eu-west-1:123456789012:function:preview-sandbox';
const code = { s3_bucket: 'acme-builds', s3_key: 'shop-api/42.zip' };

const configs = awsLambdaConfigs({ live: [liveArn, liveWorker, sharedArn], test: [testArn, sharedArn] });
const parse = (functionName: string, mode: Mode) => configs.parseConfig({ function_name: functionName, code }, { mode });
const refused = (issue: string) => ({ ok: false, issues: [{ field: 'config.function_name', issue }] });

describe('aws-lambda config: the deploy targets of each mode', () => {
  it.each([liveArn, liveWorker, 'shop-worker'])(
    'test mode refuses the live-only function %s, naming only the test-mode targets',
    async (name) => {
      expect(await parse(name, 'test')).toEqual(
        refused(`is not a test-mode deploy target of this deployment; allowed: ${testArn}, ${sharedArn}`),
      );
    },
  );

  it('live mode refuses a test-only function, naming only the live targets', async () => {
    expect(await parse(testArn, 'live')).toEqual(
      refused(`is not a live-mode deploy target of this deployment; allowed: ${liveArn}, ${liveWorker}, ${sharedArn}`),
    );
  });

  it('each mode takes its own targets, and a bare name stands for the function of its own list', async () => {
    expect(await parse(liveArn, 'live')).toMatchObject({ ok: true, config: { function_name: liveArn } });
    expect(await parse('shop-worker', 'live')).toMatchObject({ ok: true, config: { function_name: liveWorker } });
    expect(await parse(testArn, 'test')).toMatchObject({ ok: true, config: { function_name: testArn } });
    // `shop-api` is the name of a live and of a test function: never ambiguous, each mode sees one.
    expect(await parse('shop-api', 'live')).toMatchObject({ ok: true, config: { function_name: liveArn } });
    expect(await parse('shop-api', 'test')).toMatchObject({ ok: true, config: { function_name: testArn } });
  });

  it('a function in both lists is allowed in both modes', async () => {
    for (const mode of ['live', 'test'] as const) {
      expect([mode, await parse(sharedArn, mode)]).toMatchObject([mode, { ok: true, config: { function_name: sharedArn } }]);
      expect([mode, await parse('preview-sandbox', mode)]).toMatchObject([mode, { ok: true, config: { function_name: sharedArn } }]);
    }
  });

  it('a test-mode config parses its own output unchanged in test mode, and is refused in live mode when its function is test-only', async () => {
    const parsed = await parse('shop-api', 'test');
    if (!parsed.ok) throw new Error('test-mode shop-api should parse');
    expect(await configs.parseConfig({ ...parsed.config }, { mode: 'test' })).toEqual(parsed);
    expect(await configs.parseConfig({ ...parsed.config }, { mode: 'live' })).toMatchObject({
      ok: false,
      issues: [{ field: 'config.function_name' }],
    });
  });

  it('with no test-mode targets, every test-mode config is refused, live targets or not', async () => {
    const liveOnly = awsLambdaConfigs({ live: [liveArn, 'local-fn'], test: [] });
    for (const name of [liveArn, 'shop-api', 'local-fn', testArn]) {
      expect([name, await liveOnly.parseConfig({ function_name: name, code }, { mode: 'test' })]).toEqual([
        name,
        refused('is not a test-mode deploy target of this deployment; allowed: none'),
      ]);
    }
    expect(await liveOnly.parseConfig({ function_name: 'local-fn', code }, { mode: 'live' })).toMatchObject({
      ok: true,
      config: { function_name: 'local-fn' },
    });
  });

  it('with no live targets, every live config is refused, test targets or not', async () => {
    const testOnly = awsLambdaConfigs({ live: [], test: [testArn] });
    expect(await testOnly.parseConfig({ function_name: testArn, code }, { mode: 'live' })).toEqual(
      refused('is not a live-mode deploy target of this deployment; allowed: none'),
    );
    expect(await testOnly.parseConfig({ function_name: testArn, code }, { mode: 'test' })).toMatchObject({ ok: true });
  });

  it('asks for the ARN only when a name matches several functions of the same mode', async () => {
    const otherRegion = testArn.replace('eu-west-1', 'us-east-1');
    const twoTestRegions = awsLambdaConfigs({ live: [liveArn], test: [testArn, otherRegion] });
    expect(await twoTestRegions.parseConfig({ function_name: 'shop-api', code }, { mode: 'test' })).toEqual(
      refused(`names several allowed functions (${testArn}, ${otherRegion}); give the ARN`),
    );
    expect(await twoTestRegions.parseConfig({ function_name: 'shop-api', code }, { mode: 'live' })).toMatchObject({
      ok: true,
      config: { function_name: liveArn },
    });
  });

  it('fails closed for a mode that is neither live nor test', async () => {
    expect(await parse(sharedArn, 'staging' as Mode)).toEqual(
      refused('is not a staging-mode deploy target of this deployment; allowed: none'),
    );
  });

  it.each([
    ['live', { live: ['*'], test: [] }],
    ['test', { live: [liveArn], test: ['arn:aws:lambda:eu-west-1:210987654321:function:*'] }],
    ['test', { live: [], test: [`${testArn}:live`] }],
  ] as const)('refuses a wildcard or qualified entry in the %s-mode list when built', (mode, targets) => {
    expect(() => awsLambdaConfigs(targets)).toThrow(new RegExp(`^allowed ${mode}-mode function .* \\(no wildcards\\)$`));
  });
});
