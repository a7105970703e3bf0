import {
  CreateAliasCommand,
  GetAliasCommand,
  GetFunctionConfigurationCommand,
  InvalidParameterValueException,
  InvokeCommand,
  LambdaClient,
  LambdaServiceException,
  PreconditionFailedException,
  PublishVersionCommand,
  ResourceNotFoundException,
  ServiceException,
  TooManyRequestsException,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
} from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { awsLambdaProvider, type AwsLambdaConfig } from '../../../functions/adapters/deployments/aws-lambda-provider';
import {
  DeploymentProviderError,
  type DeploymentTarget,
  DeploymentTransientError,
  type DeployOutcome,
  healthSchedule,
} from '../../../functions/core/deployments/providers/provider';
import { controlledClock } from '../fakes/clock';
import { rejectionOf } from './local-server';

const lambda = mockClient(LambdaClient);
const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-api';
const otherArn = 'arn:aws:lambda:eu-west-1:123456789012:function:shop-worker';
const clock = controlledClock();
const sleeps: number[] = [];
const provider = awsLambdaProvider({
  client: new LambdaClient({ region: 'eu-west-1' }),
  targets: { live: [arn, otherArn, 'local-fn'], test: [] },
  clock,
  pollIntervalMs: 500,
  updateWaitMs: 2_000,
  sleep: async (ms) => {
    sleeps.push(ms);
  },
});

const target: DeploymentTarget = {
  deployment_id: 'dep_02JCURRENT',
  project: { id: 'prj_01JPROJECT', name: 'Shop', repository: 'https://github.com/acme/shop' },
  environment: 'production',
  branch: 'main',
  mode: 'live',
  artifact: null,
};

const config = (overrides: Partial<AwsLambdaConfig> = {}): AwsLambdaConfig => ({
  function_name: arn,
  alias: 'live',
  code: { s3_bucket: 'acme-builds', s3_key: 'shop-api/42.zip', s3_object_version: 'v3rs10n' },
  health_payload: { ping: true },
  health_timeout_seconds: 120,
  health_interval_seconds: 5,
  ...overrides,
});

const meta = { $metadata: {} };
const commandNames = () => lambda.calls().map((call) => (call.args[0] as object).constructor.name);
const inputOf = <T>(command: new (...args: never[]) => T, index = 0) => lambda.commandCalls(command as never)[index]?.args[0].input;

/** A function whose alias `live` points at version 6, and an update that completes on the second poll. */
const happyPath = () => {
  lambda.on(GetAliasCommand).resolves({ Name: 'live', FunctionVersion: '6', RevisionId: 'rev-alias-1', AliasArn: `${arn}:live`, ...meta });
  lambda.on(UpdateFunctionCodeCommand).resolves({ FunctionArn: arn, CodeSha256: 'sha-new', LastUpdateStatus: 'InProgress', ...meta });
  lambda
    .on(GetFunctionConfigurationCommand)
    .resolvesOnce({ LastUpdateStatus: 'InProgress', ...meta })
    .resolves({ LastUpdateStatus: 'Successful', CodeSha256: 'sha-new', ...meta });
  lambda.on(PublishVersionCommand).resolves({ FunctionArn: `${arn}:7`, Version: '7', CodeSha256: 'sha-new', ...meta });
  lambda.on(UpdateAliasCommand).resolves({ AliasArn: `${arn}:live`, FunctionVersion: '7', ...meta });
  lambda.on(CreateAliasCommand).resolves({ AliasArn: `${arn}:live`, FunctionVersion: '7', ...meta });
};

beforeEach(() => {
  lambda.reset();
  sleeps.length = 0;
});

describe('aws-lambda: deploy', () => {
  it('updates the code, waits for it, publishes a version and moves the alias', async () => {
    happyPath();
    const outcome = await provider.deploy(target, config());

    expect(commandNames()).toEqual([
      'GetAliasCommand',
      'UpdateFunctionCodeCommand',
      'GetFunctionConfigurationCommand',
      'GetFunctionConfigurationCommand',
      'PublishVersionCommand',
      'UpdateAliasCommand',
    ]);
    expect(inputOf(GetAliasCommand)).toEqual({ FunctionName: arn, Name: 'live' });
    expect(inputOf(UpdateFunctionCodeCommand)).toEqual({
      FunctionName: arn,
      S3Bucket: 'acme-builds',
      S3Key: 'shop-api/42.zip',
      S3ObjectVersion: 'v3rs10n',
      Publish: false,
    });
    expect(inputOf(GetFunctionConfigurationCommand)).toEqual({ FunctionName: arn });
    expect(sleeps).toEqual([500]);
    expect(inputOf(PublishVersionCommand)).toEqual({ FunctionName: arn, CodeSha256: 'sha-new', Description: 'Deployment dep_02JCURRENT' });
    expect(inputOf(UpdateAliasCommand)).toEqual({
      FunctionName: arn,
      Name: 'live',
      FunctionVersion: '7',
      RevisionId: 'rev-alias-1',
      RoutingConfig: { AdditionalVersionWeights: {} },
    });
    expect(outcome).toEqual({
      url: null,
      version: '7',
      details: { function_arn: arn, alias: 'live', alias_arn: `${arn}:live`, previous_version: '6', code_sha256: 'sha-new' },
    });
  });

  it('creates the alias when it does not exist yet', async () => {
    happyPath();
    lambda.on(GetAliasCommand).rejects(new ResourceNotFoundException({ message: 'Alias not found: live', ...meta }));
    const outcome = await provider.deploy(target, config({ code: { s3_bucket: 'acme-builds', s3_key: 'k.zip', s3_object_version: null } }));

    expect(commandNames()).toEqual([
      'GetAliasCommand',
      'UpdateFunctionCodeCommand',
      'GetFunctionConfigurationCommand',
      'GetFunctionConfigurationCommand',
      'PublishVersionCommand',
      'CreateAliasCommand',
    ]);
    expect(inputOf(UpdateFunctionCodeCommand)).toEqual({ FunctionName: arn, S3Bucket: 'acme-builds', S3Key: 'k.zip', Publish: false });
    expect(inputOf(CreateAliasCommand)).toMatchObject({ FunctionName: arn, Name: 'live', FunctionVersion: '7' });
    expect(outcome.details).toMatchObject({ previous_version: null });
  });

  it('fails for good when the code update fails', async () => {
    happyPath();
    lambda.on(GetFunctionConfigurationCommand).resolves({
      LastUpdateStatus: 'Failed',
      LastUpdateStatusReasonCode: 'InvalidZipFileException',
      LastUpdateStatusReason: 'Could not unzip',
      ...meta,
    });
    const failure = await rejectionOf(provider.deploy(target, config()));
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toBe(`the code update of ${arn} failed (InvalidZipFileException: Could not unzip)`);
    expect(commandNames()).not.toContain('PublishVersionCommand');
  });

  it('gives up waiting, as transient, after updateWaitMs', async () => {
    happyPath();
    lambda.on(GetFunctionConfigurationCommand).resolves({ LastUpdateStatus: 'InProgress', ...meta });
    const failure = await rejectionOf(provider.deploy(target, config()));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(lambda.commandCalls(GetFunctionConfigurationCommand)).toHaveLength(5);
    expect(sleeps).toEqual([500, 500, 500, 500]);
  });

  it.each([
    ['TooManyRequestsException', new TooManyRequestsException({ message: 'Rate exceeded', ...meta })],
    ['ServiceException', new ServiceException({ message: 'Internal', ...meta })],
    ['PreconditionFailedException', new PreconditionFailedException({ message: 'CodeSha256 does not match', ...meta })],
    ['a throttled call', new LambdaServiceException({ name: 'ThrottlingException', $fault: 'client', message: 'Rate exceeded', ...meta })],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
  ])('reports %s as a DeploymentTransientError', async (_, error) => {
    happyPath();
    lambda.on(PublishVersionCommand).rejects(error);
    const failure = await rejectionOf(provider.deploy(target, config()));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(failure.message).toContain(`PublishVersion on ${arn}`);
  });

  it.each([
    ['a missing function', new ResourceNotFoundException({ message: 'Function not found', ...meta }), 'Lambda function or alias not found'],
    [
      'access denied',
      new LambdaServiceException({
        name: 'AccessDeniedException',
        $fault: 'client',
        message: 'not authorized to perform lambda:UpdateFunctionCode',
        ...meta,
      }),
      'was denied',
    ],
    [
      'an invalid parameter',
      new InvalidParameterValueException({ message: 'Error occurred while GetObject. S3 Error Code: NoSuchKey', ...meta }),
      'invalid parameter',
    ],
  ])('reports %s as a DeploymentProviderError', async (_, error, text) => {
    happyPath();
    lambda.on(UpdateFunctionCodeCommand).rejects(error);
    const failure = await rejectionOf(provider.deploy(target, config()));
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toContain('UpdateFunctionCode');
    expect(failure.message).toContain(text);
    expect(failure.message).toContain(error.message);
  });
});

describe('aws-lambda: checkHealth', () => {
  const deployed: DeployOutcome = { url: null, version: '7', details: { function_arn: arn } };
  const payload = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  /** An Invoke answer's Payload (the SDK's Uint8ArrayBlobAdapter). */
  const answerPayload = (value: unknown) => Object.assign(payload(value), { transformToString: () => JSON.stringify(value) });

  it('invokes the alias synchronously with the health payload; 200 without a function error is healthy', async () => {
    lambda.on(InvokeCommand).callsFake(async () => {
      clock.advance(35);
      return { StatusCode: 200, ExecutedVersion: '7', Payload: answerPayload({ ok: true }), ...meta };
    });
    const outcome = await provider.checkHealth(target, config(), deployed);

    expect(inputOf(InvokeCommand)).toEqual({
      FunctionName: arn,
      Qualifier: 'live',
      InvocationType: 'RequestResponse',
      Payload: payload({ ping: true }),
    });
    expect(outcome).toEqual({
      healthy: true,
      checked_at: new Date(clock.now()).toISOString(),
      status_code: 200,
      latency_ms: 35,
      message: 'invocation answered 200 (version 7)',
    });
  });

  it('is unhealthy on a function error, naming it', async () => {
    lambda.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      ExecutedVersion: '7',
      Payload: answerPayload({ errorType: 'TypeError', errorMessage: "Cannot read properties of undefined (reading 'db')" }),
      ...meta,
    });
    expect(await provider.checkHealth(target, config(), deployed)).toMatchObject({
      healthy: false,
      status_code: 200,
      message: "function error (version 7): Unhandled: TypeError: Cannot read properties of undefined (reading 'db')",
    });
  });

  it('is unhealthy when the alias runs another version than the deployed one', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, ExecutedVersion: '8', ...meta });
    expect(await provider.checkHealth(target, config(), deployed)).toMatchObject({
      healthy: false,
      message: 'alias live runs version 8, not the deployed version 7',
    });
  });

  it('throws transient on throttling and permanent on a missing function', async () => {
    lambda
      .on(InvokeCommand)
      .rejectsOnce(
        new TooManyRequestsException({ message: 'Rate exceeded', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded', ...meta }),
      );
    expect(await rejectionOf(provider.checkHealth(target, config(), deployed))).toBeInstanceOf(DeploymentTransientError);
    lambda.on(InvokeCommand).rejects(new ResourceNotFoundException({ message: 'Function not found', ...meta }));
    expect(await rejectionOf(provider.checkHealth(target, config(), deployed))).toBeInstanceOf(DeploymentProviderError);
  });
});

describe('aws-lambda: rollback', () => {
  const current = { target, deployed: { url: null, version: '7', details: { function_arn: arn, alias: 'live', previous_version: '6' } } };
  const previous = {
    target: { ...target, deployment_id: 'dep_01JPREVIOUS' },
    deployed: { url: null, version: '6', details: { function_arn: arn, alias: 'live' } },
  };

  it('points the alias back at the previous version', async () => {
    lambda.on(UpdateAliasCommand).resolves({ AliasArn: `${arn}:live`, FunctionVersion: '6', ...meta });
    const outcome = await provider.rollback({ current, previous }, config());

    expect(commandNames()).toEqual(['UpdateAliasCommand']);
    expect(inputOf(UpdateAliasCommand)).toEqual({
      FunctionName: arn,
      Name: 'live',
      FunctionVersion: '6',
      RoutingConfig: { AdditionalVersionWeights: {} },
    });
    expect(outcome).toEqual({
      url: null,
      version: '6',
      details: { function_arn: arn, alias: 'live', alias_arn: `${arn}:live`, rolled_back_from: '7' },
    });
  });

  it('refuses a previous deployment without a version, or of another function', async () => {
    const noVersion = { ...previous, deployed: { ...previous.deployed, version: null } };
    expect(await rejectionOf(provider.rollback({ current, previous: noVersion }, config()))).toBeInstanceOf(DeploymentProviderError);
    const elsewhere = { ...previous, deployed: { ...previous.deployed, details: { function_arn: otherArn } } };
    const failure = await rejectionOf(provider.rollback({ current, previous: elsewhere }, config()));
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toContain(otherArn);
    expect(lambda.calls()).toHaveLength(0);
  });

  it('health and rollback of an existing deployment work on the function recorded at its creation, whatever the target lists of its mode now', async () => {
    // The target lists are checked when a deployment is created (parseConfig), not by its steps.
    const testTarget: DeploymentTarget = { ...target, mode: 'test' };
    const noTestTargets = awsLambdaProvider({ client: new LambdaClient({ region: 'eu-west-1' }), targets: { live: [arn], test: [] } });
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, ExecutedVersion: '7', ...meta });
    lambda.on(UpdateAliasCommand).resolves({ AliasArn: `${arn}:live`, FunctionVersion: '6', ...meta });
    expect(await noTestTargets.checkHealth(testTarget, config(), current.deployed)).toMatchObject({ healthy: true });
    const testCurrent = { ...current, target: testTarget };
    const testPrevious = { ...previous, target: { ...previous.target, mode: 'test' as const } };
    expect(await noTestTargets.rollback({ current: testCurrent, previous: testPrevious }, config())).toMatchObject({ version: '6' });
    expect(commandNames()).toEqual(['InvokeCommand', 'UpdateAliasCommand']);
    expect(inputOf(UpdateAliasCommand)).toMatchObject({ FunctionName: arn, Name: 'live', FunctionVersion: '6' });
  });
});

describe('aws-lambda: parseConfig', () => {
  const valid = { function_name: arn, code: { s3_bucket: 'acme-builds', s3_key: 'shop-api/42.zip' } };
  const parse = (input: Record<string, unknown>) => provider.parseConfig(input, { mode: 'live' });

  it('applies the defaults and parses its own output unchanged', async () => {
    const result = await parse({ ...valid, branch: 'main', auto_rollback: true });
    expect(result).toEqual({
      ok: true,
      config: {
        function_name: arn,
        alias: 'live',
        code: { s3_bucket: 'acme-builds', s3_key: 'shop-api/42.zip', s3_object_version: null },
        health_payload: {},
        health_timeout_seconds: 120,
        health_interval_seconds: 5,
      },
    });
    if (!result.ok) throw new Error('unreachable');
    expect(await parse({ ...result.config })).toEqual(result);
    expect(healthSchedule(result.config)).toEqual({ timeoutSeconds: 120, intervalSeconds: 5 });
    expect(provider.redactConfig(result.config)).toEqual(result.config);
  });

  it('takes a bare name for an allowed ARN, and stores the ARN', async () => {
    expect(await parse({ ...valid, function_name: 'shop-worker', alias: 'blue_green-2' })).toMatchObject({
      ok: true,
      config: { function_name: otherArn, alias: 'blue_green-2' },
    });
    expect(await parse({ ...valid, function_name: 'local-fn' })).toMatchObject({ ok: true, config: { function_name: 'local-fn' } });
  });

  it.each<[string, Record<string, unknown>, { field: string; issue: string }[]]>([
    [
      'a function that is not allowed',
      { ...valid, function_name: 'arn:aws:lambda:eu-west-1:123456789012:function:billing' },
      [
        {
          field: 'config.function_name',
          issue: `is not a live-mode deploy target of this deployment; allowed: ${arn}, ${otherArn}, local-fn`,
        },
      ],
    ],
    [
      'a qualified ARN',
      { ...valid, function_name: `${arn}:live` },
      [{ field: 'config.function_name', issue: 'must not carry a version or alias (set config.alias)' }],
    ],
    [
      'a malformed name',
      { ...valid, function_name: 'shop api' },
      [{ field: 'config.function_name', issue: 'must be a function name or an unqualified function ARN' }],
    ],
    ['a missing function_name', { code: valid.code }, [{ field: 'config.function_name', issue: 'is required' }]],
    ['a bad alias', { ...valid, alias: 'live!' }, [{ field: 'config.alias', issue: 'may only hold letters, digits, - and _' }]],
    ['a numeric alias', { ...valid, alias: '12' }, [{ field: 'config.alias', issue: 'must not be a number (numbers are versions)' }]],
    ['missing code', { function_name: arn }, [{ field: 'config.code', issue: 'is required' }]],
    [
      'an incomplete code',
      { ...valid, code: { s3_bucket: 'Bad_Bucket', extra: 1 } },
      [
        { field: 'config.code.extra', issue: 'is not a known field' },
        { field: 'config.code.s3_bucket', issue: 'is not a valid S3 bucket name' },
        { field: 'config.code.s3_key', issue: 'is required' },
      ],
    ],
    [
      'a health payload that is not an object',
      { ...valid, health_payload: [1] },
      [{ field: 'config.health_payload', issue: 'must be a JSON object' }],
    ],
    ['an unknown field', { ...valid, role_arn: 'x' }, [{ field: 'config.role_arn', issue: 'is not a known field' }]],
    [
      'an interval out of range',
      { ...valid, health_interval_seconds: 0 },
      [{ field: 'config.health_interval_seconds', issue: 'must be an integer between 1 and 60' }],
    ],
  ])('refuses %s', async (_, input, issues) => {
    expect(await parse(input)).toEqual({ ok: false, issues });
  });

  it('refuses every function when nothing is allowed', async () => {
    const closed = awsLambdaProvider({ client: new LambdaClient({ region: 'eu-west-1' }), targets: { live: [], test: [] } });
    expect(await closed.parseConfig(valid, { mode: 'live' })).toEqual({
      ok: false,
      issues: [{ field: 'config.function_name', issue: 'is not a live-mode deploy target of this deployment; allowed: none' }],
    });
    expect(await closed.parseConfig(valid, { mode: 'test' })).toEqual({
      ok: false,
      issues: [{ field: 'config.function_name', issue: 'is not a test-mode deploy target of this deployment; allowed: none' }],
    });
  });

  it('asks for the ARN when a name matches several allowed functions', async () => {
    const twoRegions = awsLambdaProvider({
      client: new LambdaClient({ region: 'eu-west-1' }),
      targets: { live: [arn, arn.replace('eu-west-1', 'us-east-1')], test: [] },
    });
    expect(await twoRegions.parseConfig({ ...valid, function_name: 'shop-api' }, { mode: 'live' })).toMatchObject({
      ok: false,
      issues: [{ field: 'config.function_name' }],
    });
  });

  it.each([
    ['live', { live: ['arn:aws:lambda:eu-west-1:123456789012:function:*'], test: [] }],
    ['test', { live: [], test: ['arn:aws:lambda:eu-west-1:123456789012:function:*'] }],
    ['test', { live: [arn], test: ['*'] }],
  ] as const)('refuses wildcards in the allowed %s-mode list', (mode, targets) => {
    expect(() => awsLambdaProvider({ client: new LambdaClient({}), targets })).toThrow(
      new RegExp(`^allowed ${mode}-mode function .* \\(no wildcards\\)$`),
    );
  });
});
