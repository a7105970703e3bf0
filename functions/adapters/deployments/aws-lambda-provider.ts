import {
  type AliasConfiguration,
  CreateAliasCommand,
  GetAliasCommand,
  GetFunctionConfigurationCommand,
  InvokeCommand,
  type LambdaClient,
  PublishVersionCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
} from '@aws-sdk/client-lambda';
import { type Clock, isoTime, systemClock } from '../../core/clock';
import {
  type DeploymentProvider,
  DeploymentProviderError,
  DeploymentTransientError,
  type DeployOutcome,
  type HealthOutcome,
} from '../../core/deployments/providers/provider';
import { type AwsLambdaConfig, awsLambdaConfigs, type LambdaTargets } from './aws-lambda-config';

export { type AwsLambdaConfig, awsLambdaProviderName, defaultAlias, type LambdaTargets } from './aws-lambda-config';

/**
 * The `aws-lambda` provider: deploys a Lambda package from S3 to an existing function, publishes a
 * version and points an alias at it; health is one synchronous invocation of the alias; rollback
 * points the alias back at the previous deployment's version.
 *
 * Config:
 *   function_name            a function name or an unqualified function ARN, which must be one of
 *                            the provider's `targets` of the deployment's mode (live:
 *                            DEPLOY_LAMBDA_TARGETS, test: DEPLOY_LAMBDA_TEST_TARGETS). A bare name
 *                            that matches an allowed ARN is stored as that ARN.
 *   alias                    default `live`; [a-zA-Z0-9-_], 1–128, not all digits.
 *   code                     { s3_bucket, s3_key, s3_object_version? }: the Lambda package (a zip). Always
 *                            required, even when the deployment names a workflow artifact: a workflow
 *                            bundle is the changed SOURCE (a tarball), not a built Lambda package.
 *   health_payload           JSON object sent to the alias on each probe, default {} (at most 64 KiB).
 *   health_timeout_seconds   10–900, default 120.   health_interval_seconds  1–60, default 5.
 *
 * deploy: GetAlias (its current version is `details.previous_version`; a missing alias is
 * created) → UpdateFunctionCode (Publish false) → GetFunctionConfiguration until LastUpdateStatus
 * is Successful (bounded) → PublishVersion with the update's CodeSha256 (so a concurrent update
 * is not published by mistake) → UpdateAlias (with the alias' RevisionId) or CreateAlias. Any
 * weighted routing on the alias is cleared.
 *
 * Errors: throttling, service errors, update/alias conflicts, timeouts → DeploymentTransientError;
 * missing function or alias, access denied, invalid parameters and the rest → DeploymentProviderError.
 */
export interface AwsLambdaOptions {
  client: LambdaClient;
  /** Per mode, the function ARNs or names this service may deploy to; no wildcards. Empty: none. */
  targets: LambdaTargets;
  clock?: Clock;
  /** Between two GetFunctionConfiguration polls. Default 1 000 ms. */
  pollIntervalMs?: number;
  /** How long the code update may stay InProgress. Default 60 000 ms. */
  updateWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const maxMessageLength = 300;

const shorten = (text: string): string => (text.length > maxMessageLength ? `${text.slice(0, maxMessageLength - 1)}…` : text);

const transientNames = new Set([
  'TooManyRequestsException',
  'ThrottlingException',
  'Throttling',
  'ServiceException',
  'ResourceConflictException',
  'ResourceNotReadyException',
  'PreconditionFailedException',
  'EC2ThrottledException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const transientCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'ERR_HTTP2_STREAM_ERROR']);

interface AwsErrorFields {
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** An SDK failure as a provider error; `what` names the call and its function. */
const failureOf = (operation: string, functionName: string, error: unknown): Error => {
  if (error instanceof DeploymentProviderError || error instanceof DeploymentTransientError) return error;
  const name = error instanceof Error ? error.name : 'Error';
  const detail = shorten(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as AwsErrorFields;
  if (
    transientNames.has(name) ||
    (typeof fields.code === 'string' && transientCodes.has(fields.code)) ||
    fields.$fault === 'server' ||
    (fields.$metadata?.httpStatusCode ?? 0) >= 500
  ) {
    return new DeploymentTransientError(`${operation} on ${functionName} failed, worth a retry (${detail})`);
  }
  if (name === 'ResourceNotFoundException')
    return new DeploymentProviderError(`${operation}: Lambda function or alias not found: ${functionName} (${detail})`);
  if (name === 'AccessDeniedException' || name === 'AccessDenied' || name === 'KMSAccessDeniedException') {
    return new DeploymentProviderError(`${operation} on ${functionName} was denied: the service's role lacks the permission (${detail})`);
  }
  if (name === 'InvalidParameterValueException')
    return new DeploymentProviderError(`${operation} on ${functionName}: invalid parameter (${detail})`);
  return new DeploymentProviderError(`${operation} on ${functionName} failed (${detail})`);
};

const payloadText = (payload: Uint8Array | undefined): string => (payload ? Buffer.from(payload).toString('utf8') : '');

/** `Unhandled: TypeError: x is undefined` from a function error's payload, when it has the usual shape. */
const functionErrorText = (functionError: string, payload: Uint8Array | undefined): string => {
  try {
    const parsed = JSON.parse(payloadText(payload)) as { errorType?: unknown; errorMessage?: unknown };
    const parts = [parsed.errorType, parsed.errorMessage].filter((part): part is string => typeof part === 'string' && part !== '');
    if (parts.length > 0) return `${functionError}: ${parts.join(': ')}`;
  } catch {
    // not JSON: the error kind alone
  }
  return functionError;
};

const versionPattern = /^\d+$/;

export const awsLambdaProvider = (options: AwsLambdaOptions): DeploymentProvider<AwsLambdaConfig> => {
  const config = awsLambdaConfigs(options.targets);
  const { client } = options;
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const updateWaitMs = options.updateWaitMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const call = async <T>(operation: string, functionName: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw failureOf(operation, functionName, error);
    }
  };

  /** Polls until the code update is done: Successful, or Failed (permanent), or still going after `updateWaitMs`. */
  const awaitUpdate = async (functionName: string): Promise<void> => {
    const polls = Math.max(1, Math.ceil(updateWaitMs / Math.max(1, pollIntervalMs)) + 1);
    for (let poll = 1; poll <= polls; poll += 1) {
      const configuration = await call('GetFunctionConfiguration', functionName, () =>
        client.send(new GetFunctionConfigurationCommand({ FunctionName: functionName })),
      );
      if (configuration.LastUpdateStatus === 'Successful') return;
      if (configuration.LastUpdateStatus === 'Failed') {
        const reason = [configuration.LastUpdateStatusReasonCode, configuration.LastUpdateStatusReason].filter(Boolean).join(': ');
        throw new DeploymentProviderError(shorten(`the code update of ${functionName} failed${reason ? ` (${reason})` : ''}`));
      }
      if (poll < polls) await sleep(pollIntervalMs);
    }
    throw new DeploymentTransientError(
      `the code update of ${functionName} is still in progress after ${Math.round(updateWaitMs / 1000)} s`,
    );
  };

  const pointAlias = (config: AwsLambdaConfig, version: string, existing: AliasConfiguration | null): Promise<AliasConfiguration> =>
    existing
      ? call('UpdateAlias', config.function_name, () =>
          client.send(
            new UpdateAliasCommand({
              FunctionName: config.function_name,
              Name: config.alias,
              FunctionVersion: version,
              RoutingConfig: { AdditionalVersionWeights: {} },
              ...(existing.RevisionId ? { RevisionId: existing.RevisionId } : {}),
            }),
          ),
        )
      : call('CreateAlias', config.function_name, () =>
          client.send(
            new CreateAliasCommand({
              FunctionName: config.function_name,
              Name: config.alias,
              FunctionVersion: version,
              Description: 'Managed by Project Automation Service deployments',
            }),
          ),
        );

  return {
    ...config,

    async deploy(target, config): Promise<DeployOutcome> {
      const fn = config.function_name;
      const alias = await client.send(new GetAliasCommand({ FunctionName: fn, Name: config.alias })).catch((error: unknown) => {
        if (error instanceof Error && error.name === 'ResourceNotFoundException') return null;
        throw failureOf('GetAlias', fn, error);
      });
      const previousVersion = alias?.FunctionVersion ?? null;

      const update = await call('UpdateFunctionCode', fn, () =>
        client.send(
          new UpdateFunctionCodeCommand({
            FunctionName: fn,
            S3Bucket: config.code.s3_bucket,
            S3Key: config.code.s3_key,
            ...(config.code.s3_object_version === null ? {} : { S3ObjectVersion: config.code.s3_object_version }),
            Publish: false,
          }),
        ),
      );
      await awaitUpdate(fn);

      const published = await call('PublishVersion', fn, () =>
        client.send(
          new PublishVersionCommand({
            FunctionName: fn,
            ...(update.CodeSha256 ? { CodeSha256: update.CodeSha256 } : {}),
            Description: `Deployment ${target.deployment_id}`.slice(0, 256),
          }),
        ),
      );
      const version = published.Version;
      if (version === undefined || !versionPattern.test(version))
        throw new DeploymentProviderError(`PublishVersion on ${fn} returned no version`);

      const pointed = await pointAlias(config, version, alias);
      return {
        url: null,
        version,
        details: {
          function_arn: update.FunctionArn ?? published.FunctionArn?.replace(/:\d+$/, '') ?? fn,
          alias: config.alias,
          alias_arn: pointed.AliasArn ?? null,
          previous_version: previousVersion,
          code_sha256: published.CodeSha256 ?? update.CodeSha256 ?? null,
        },
      };
    },

    async checkHealth(_target, config, deployed): Promise<HealthOutcome> {
      const fn = config.function_name;
      const started = clock.now();
      const answer = await call('Invoke', fn, () =>
        client.send(
          new InvokeCommand({
            FunctionName: fn,
            Qualifier: config.alias,
            InvocationType: 'RequestResponse',
            Payload: new TextEncoder().encode(JSON.stringify(config.health_payload)),
          }),
        ),
      );
      const finished = clock.now();
      const status = answer.StatusCode ?? null;
      const outcome = (healthy: boolean, message: string): HealthOutcome => ({
        healthy,
        checked_at: isoTime(finished),
        status_code: status,
        latency_ms: Math.max(0, finished - started),
        message: shorten(message),
      });
      const ran = answer.ExecutedVersion ? ` (version ${answer.ExecutedVersion})` : '';
      if (answer.FunctionError) return outcome(false, `function error${ran}: ${functionErrorText(answer.FunctionError, answer.Payload)}`);
      if (status !== 200) return outcome(false, `invocation answered ${status ?? 'no status'}${ran}`);
      if (
        deployed.version !== null &&
        answer.ExecutedVersion &&
        answer.ExecutedVersion !== '$LATEST' &&
        answer.ExecutedVersion !== deployed.version
      ) {
        return outcome(false, `alias ${config.alias} runs version ${answer.ExecutedVersion}, not the deployed version ${deployed.version}`);
      }
      return outcome(true, `invocation answered 200${ran}`);
    },

    async rollback({ current, previous }, config): Promise<DeployOutcome> {
      const fn = config.function_name;
      const version = previous.deployed.version;
      if (version === null || !versionPattern.test(version)) {
        throw new DeploymentProviderError(
          `cannot roll back to deployment ${previous.target.deployment_id}: it has no published Lambda version`,
        );
      }
      const previousArn = previous.deployed.details.function_arn;
      const currentArn = current.deployed.details.function_arn;
      if (typeof previousArn === 'string' && typeof currentArn === 'string' && previousArn !== currentArn) {
        throw new DeploymentProviderError(
          `cannot roll back to deployment ${previous.target.deployment_id}: it deployed ${previousArn}, not ${currentArn}`,
        );
      }
      const pointed = await call('UpdateAlias', fn, () =>
        client.send(
          new UpdateAliasCommand({
            FunctionName: fn,
            Name: config.alias,
            FunctionVersion: version,
            RoutingConfig: { AdditionalVersionWeights: {} },
          }),
        ),
      );
      return {
        url: null,
        version,
        details: {
          function_arn: typeof currentArn === 'string' ? currentArn : fn,
          alias: config.alias,
          alias_arn: pointed.AliasArn ?? null,
          rolled_back_from: current.deployed.version,
        },
      };
    },
  };
};
