import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type AsyncWorkerProps, asyncWorkerEnvironment, bindAsyncWorker } from './async-worker';
import { grantRepositoryToken } from './repository-token';
import { ServiceFunction } from './service-function';
import { nagResource } from '../nag-finding';
import { findingArtifactPrefix } from '../../functions/core/security/remediate';

export const securityFunctionDescription = 'security: scans (secrets, dependencies, sast) and remediations, invoked asynchronously';

/** Prefix of remediation patches in the artifact bucket (the worker writes, finding routes read). */
export { findingArtifactPrefix };

export interface SecurityScanningProps extends AsyncWorkerProps {
  artifacts: IBucket;
  artifactKey: IKey;
  /** The OSV API the dependencies scanner asks (context `osvApiUrl`); its advisories are public. */
  osvApiUrl: string;
}

/**
 * The security function: a scan or a remediation per asynchronous invocation, long enough for a
 * repository (15 minutes, 10 GiB of /tmp). Lambda retries a failed invocation twice, then the event
 * goes to a queue for inspection.
 */
export class SecurityScanning extends Construct {
  readonly function: ServiceFunction;
  readonly failures: IQueue;

  constructor(scope: Construct, id: string, props: SecurityScanningProps) {
    super(scope, id);
    this.failures = props.failures;
    this.function = new ServiceFunction(this, 'Function', {
      handler: 'workers/security-job',
      description: securityFunctionDescription,
      serviceName: props.serviceName,
      timeout: Duration.minutes(15),
      memorySize: 3008,
      ephemeralStorageMiB: 10_240,
      // Both read their own files from disk (__filename), which an ESM bundle has not; jiti (ESLint's
      // config loader) is never used: the scanner passes its own config.
      shippedModules: {
        typescript: ['package.json', 'lib/typescript.js'],
        'eslint-plugin-no-unsanitized': ['package.json', 'index.js', 'lib'],
      },
      unusedModules: ['jiti'],
      environment: {
        ARTIFACT_BUCKET: props.artifacts.bucketName,
        ARTIFACT_KMS_KEY_ID: props.artifactKey.keyArn,
        OSV_API_URL: props.osvApiUrl,
        ...asyncWorkerEnvironment(props),
      },
    });
    bindAsyncWorker(this.function, props, 2);
    this.function.allow(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject'],
        resources: [props.artifacts.arnForObjects(`${findingArtifactPrefix}*`)],
      }),
    );
    this.function.allow(new PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [props.artifactKey.keyArn] }));
    grantRepositoryToken(this.function, props.repositoryToken);
    this.function.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResource(this, props.artifacts.arnForObjects(`${findingArtifactPrefix}*`))}]`,
      reason: 'Remediation patches live under the findings/ prefix of the artifact bucket; object ARNs need the wildcard.',
    });
  }

  /** A route function that starts scans or remediations. */
  bindStarter(fn: ServiceFunction): void {
    fn.function.addEnvironment('SECURITY_FUNCTION_NAME', this.function.function.functionName);
    fn.allow(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.function.functionArn] }));
  }
}
