import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import { BuildSpec, ComputeType, LinuxArmBuildImage, Project } from 'aws-cdk-lib/aws-codebuild';
import { OverriddenS3Source } from './overridden-s3-source';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { nagResource } from '../nag-finding';
import { Construct } from 'constructs';
import { type AsyncWorkerProps, asyncWorkerEnvironment, bindAsyncWorker } from './async-worker';
import { encryptProjectWith } from './project-encryption-key';
import { grantRepositoryToken } from './repository-token';
import { ServiceFunction } from './service-function';

export const testRunnerDescription = 'Runs untrusted test code in isolation; reaches nothing of the service';
export const testsFunctionDescription = 'tests: AI test generation and isolated test runs, invoked asynchronously';
export const testArtifactPrefix = 'tests/';

/**
 * Runs the framework with its machine reporter; `timeout` bounds the run and kills it (exit 124,
 * or 137 after the grace period). The test files (one per line) become an array: no word splitting.
 */
const runScript = [
  'echo "$CODEBUILD_SRC_DIR" > /tmp/out/source-dir',
  'FILES=(); while IFS= read -r file; do [ -n "$file" ] && FILES+=("$file"); done <<< "$TEST_FILES"',
  'case "$FRAMEWORK" in',
  '  jest) set -- npx --yes jest --ci --json --outputFile=/tmp/out/report.json ;;',
  '  vitest) set -- npx --yes vitest run --reporter=junit --outputFile=/tmp/out/report.xml ;;',
  '  node:test) set -- node --test --test-reporter=junit --test-reporter-destination=/tmp/out/report.xml ;;',
  '  pytest) set -- python3 -m pytest --junitxml=/tmp/out/report.xml -p no:cacheprovider -q ;;',
  'esac',
  'set +e; timeout --kill-after=10 "$TEST_TIMEOUT_SECONDS" "$@" "${FILES[@]}" > /tmp/out/output.log 2>&1; echo $? > /tmp/out/exit-code; set -e',
].join('\n');

export interface TestRunningProps extends AsyncWorkerProps {
  artifacts: IBucket;
  artifactKey: IKey;
}

/**
 * The tests function (generation and runs, asynchronous like the security function) and the
 * CodeBuild project that runs untrusted test code: its role may read the run's source and write its
 * report under `tests/` of the artifact bucket, and nothing else of the service.
 */
export class TestRunning extends Construct {
  readonly function: ServiceFunction;
  readonly project: Project;
  readonly failures: IQueue;

  constructor(scope: Construct, id: string, props: TestRunningProps) {
    super(scope, id);
    const objects = props.artifacts.arnForObjects(`${testArtifactPrefix}*`);
    const objectsFinding = `AwsSolutions-IAM5[Resource::${nagResource(this, objects)}]`;

    this.project = new Project(this, 'Runner', {
      description: testRunnerDescription,
      source: new OverriddenS3Source(`${props.artifacts.bucketName}/${testArtifactPrefix}source.zip`),
      environment: { buildImage: LinuxArmBuildImage.AMAZON_LINUX_2023_STANDARD_3_0, computeType: ComputeType.SMALL },
      timeout: Duration.minutes(20),
      grantReportGroupPermissions: false,
      logging: { cloudWatch: { logGroup: new LogGroup(this, 'RunnerLogs', { retention: RetentionDays.ONE_MONTH }) } },
      buildSpec: BuildSpec.fromObject({
        version: '0.2',
        env: { shell: 'bash' },
        phases: {
          install: {
            commands: [
              'mkdir -p /tmp/out',
              'if [ -f package.json ]; then (npm ci --ignore-scripts || npm install --ignore-scripts) > /tmp/out/install.log 2>&1 || true; fi',
              'if [ "$FRAMEWORK" = pytest ]; then pip install -q pytest > /tmp/out/install.log 2>&1; if [ -f requirements.txt ]; then pip install -q -r requirements.txt >> /tmp/out/install.log 2>&1 || true; fi; fi',
            ],
          },
          build: { commands: [runScript] },
        },
        artifacts: { 'base-directory': '/tmp/out', files: ['**/*'] },
      }),
    });
    encryptProjectWith(this.project, props.artifactKey);
    // A run reads only source zips and writes only reports; with no list permission and a random
    // (UUID) prefix per run, a run cannot find another run's objects.
    this.project.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [props.artifacts.arnForObjects(`${testArtifactPrefix}*/source.zip`)] }),
    );
    this.project.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [props.artifacts.arnForObjects(`${testArtifactPrefix}*/out/*`)] }),
    );
    this.project.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetBucketAcl', 's3:GetBucketLocation'], resources: [props.artifacts.bucketArn] }),
    );
    const projectId = Stack.of(this).getLogicalId(this.project.node.defaultChild as CfnElement);
    Validations.of(this.project).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::${nagResource(this, props.artifacts.arnForObjects(`${testArtifactPrefix}*/source.zip`))}]`,
        reason: 'The runner reads source zips under tests/ only; each run has its own random prefix and the role cannot list.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${nagResource(this, props.artifacts.arnForObjects(`${testArtifactPrefix}*/out/*`))}]`,
        reason: 'The runner writes its report under tests/<run>/out/ only; each run has its own random prefix and the role cannot list.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/codebuild/<${projectId}>:*]`,
        reason:
          "CodeBuild's default log group of the project, which CDK always grants (the project logs to its own log group): log streams need the wildcard.",
      },
    );

    this.failures = props.failures;

    this.function = new ServiceFunction(this, 'Function', {
      handler: 'workers/test-job',
      description: testsFunctionDescription,
      serviceName: props.serviceName,
      timeout: Duration.minutes(15),
      ephemeralStorageMiB: 4096,
      // The local provider's test writer reads exports with TypeScript's parser (no lib files needed).
      shippedModules: { typescript: ['package.json', 'lib/typescript.js'] },
      environment: {
        ARTIFACT_BUCKET: props.artifacts.bucketName,
        ARTIFACT_KMS_KEY_ID: props.artifactKey.keyArn,
        TEST_RUN_PROJECT: this.project.projectName,
        ...asyncWorkerEnvironment(props),
      },
    });
    bindAsyncWorker(this.function, props, 0);
    this.function.allow(
      new PolicyStatement({
        actions: ['codebuild:StartBuild', 'codebuild:BatchGetBuilds', 'codebuild:StopBuild'],
        resources: [this.project.projectArn],
      }),
    );
    this.function.allow(new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [objects] }));
    this.function.allow(new PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [props.artifactKey.keyArn] }));
    grantRepositoryToken(this.function, props.repositoryToken);
    this.function.acknowledge({
      id: objectsFinding,
      reason: 'Run sources and reports live under tests/ of the artifact bucket; object ARNs need the wildcard.',
    });
  }

  /** A route function that starts generations or runs. */
  bindStarter(fn: ServiceFunction): void {
    fn.function.addEnvironment('TESTS_FUNCTION_NAME', this.function.function.functionName);
    fn.allow(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.function.functionArn] }));
  }
}
