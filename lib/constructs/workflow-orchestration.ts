import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArnFormat, type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { functionStateMachine, stepFunctionId } from './function-state-machine';
import { grantRepositoryToken, type RepositoryToken, repositoryTokenEnvironment } from './repository-token';
import { ServiceFunction } from './service-function';
import { type AiSettings, aiEnvironment, grantAi } from './ai-settings';
import { nagResource } from '../nag-finding';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const workflowDefinitionFile = join(projectRoot, 'state-machines', 'workflow.asl.json');

/** Prefix of every workflow artifact in the bucket; stage functions may touch nothing else. */
export const workflowArtifactPrefix = 'workflows/';

export const stageFunctionDescriptions = {
  control: 'workflow control: start, skip a stage, complete, record a failure',
  intake: 'workflow stage intake: fetch the repository, gather context, plan',
  build: 'workflow stage build: the AI change set, applied, and its diff',
  verify: 'workflow stage verify: syntax and type checks, security scans and the code review of the changed files',
  prove: 'workflow stage prove: signed provenance statement',
  iterate: 'workflow stage iterate: the AI fixes what verify reported',
  package: 'workflow stage package: bundle, and a pushed branch when configured',
} as const;

type StageKey = keyof typeof stageFunctionDescriptions;

const substitutionNames: Record<StageKey, string> = {
  control: 'WorkflowControlFunctionArn',
  intake: 'IntakeFunctionArn',
  build: 'BuildFunctionArn',
  verify: 'VerifyFunctionArn',
  prove: 'ProveFunctionArn',
  iterate: 'IterateFunctionArn',
  package: 'PackageFunctionArn',
};

/** Which stages talk to the AI (verify: its code review), sign, or reach the repository. */
const usesAi: StageKey[] = ['intake', 'build', 'verify', 'iterate'];
const usesRepository: StageKey[] = ['intake', 'build', 'verify', 'iterate', 'package'];

export interface WorkflowOrchestrationProps {
  table: ITableV2;
  /** The artifact bucket, its key and the provenance signing key (in the core stack). */
  artifacts: IBucket;
  artifactKey: IKey;
  signingKey: IKey;
  serviceName: string;
  ai: AiSettings;
  /** The token for private https repositories and where it may go; also enables pushing branches. */
  repositoryToken?: RepositoryToken;
}

/**
 * The workflows' asynchronous half: the Standard state machine from `state-machines/workflow.asl.json`
 * (the same file the local runtime runs), one function per stage plus a control function, the
 * artifact bucket and the provenance signing key.
 */
export class WorkflowOrchestration extends Construct {
  readonly stateMachine: StateMachine;
  readonly artifacts: IBucket;
  readonly signingKey: IKey;
  readonly artifactKey: IKey;
  readonly functions: Record<StageKey, ServiceFunction>;

  constructor(scope: Construct, id: string, props: WorkflowOrchestrationProps) {
    super(scope, id);

    const { artifacts, artifactKey, signingKey } = props;
    this.artifacts = artifacts;
    this.artifactKey = artifactKey;
    this.signingKey = signingKey;

    const functionOf = (stage: StageKey): ServiceFunction => {
      const long = stage !== 'control' && stage !== 'prove';
      const fn = new ServiceFunction(this, stepFunctionId(stage), {
        handler: `workflow-stages/${stage}`,
        description: stageFunctionDescriptions[stage],
        serviceName: props.serviceName,
        // The state machine's TimeoutSeconds of each Task is 30 s longer: the function's own limit ends it first.
        timeout: Duration.seconds(long ? 900 : stage === 'prove' ? 120 : 60),
        memorySize: long ? 2048 : 1024,
        ephemeralStorageMiB: usesRepository.includes(stage) ? 4096 : undefined,
        // The type checks need TypeScript and its lib files on disk.
        // (and ESLint's no-unsanitized plugin, for the sast scanner verify also runs).
        shippedModules:
          stage === 'verify'
            ? {
                typescript: ['package.json', 'lib/typescript.js', 'lib/lib.*.d.ts'],
                'eslint-plugin-no-unsanitized': ['package.json', 'index.js', 'lib'],
              }
            : undefined,
        unusedModules: stage === 'verify' ? ['jiti'] : undefined,
        environment: stage === 'control' ? {} : { ARTIFACT_BUCKET: this.artifacts.bucketName, ARTIFACT_KMS_KEY_ID: artifactKey.keyArn },
      });
      fn.bindTable(props.table, 'write');
      if (stage !== 'control') {
        fn.allow(
          new PolicyStatement({
            actions: ['s3:GetObject', 's3:PutObject'],
            resources: [this.artifacts.arnForObjects(`${workflowArtifactPrefix}*`)],
          }),
        );
        fn.allow(new PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [artifactKey.keyArn] }));
        fn.acknowledge({
          id: `AwsSolutions-IAM5[Resource::${nagResource(this, artifacts.arnForObjects(`${workflowArtifactPrefix}*`))}]`,
          reason:
            'Stage functions read and write objects under the workflows/ prefix of the artifact bucket only; object ARNs need the wildcard.',
        });
      }
      if (usesAi.includes(stage)) {
        for (const [name, value] of Object.entries(aiEnvironment(props.ai))) fn.function.addEnvironment(name, value);
        grantAi(fn, props.ai);
      }
      if (usesRepository.includes(stage)) {
        for (const [name, value] of Object.entries(repositoryTokenEnvironment(props.repositoryToken)))
          fn.function.addEnvironment(name, value);
        grantRepositoryToken(fn, props.repositoryToken);
      }
      return fn;
    };

    this.functions = {
      control: functionOf('control'),
      intake: functionOf('intake'),
      build: functionOf('build'),
      verify: functionOf('verify'),
      prove: functionOf('prove'),
      iterate: functionOf('iterate'),
      package: functionOf('package'),
    };
    this.functions.prove.function.addEnvironment('SIGNING_KEY_ID', this.signingKey.keyArn);
    this.functions.prove.allow(new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [this.signingKey.keyArn] }));

    this.stateMachine = functionStateMachine(this, {
      definitionFile: workflowDefinitionFile,
      substitutionNames,
      functions: this.functions,
    });
  }

  /** A route function that starts executions (and checks the AI provider asked for). */
  bindStarter(fn: ServiceFunction, ai: AiSettings): void {
    fn.function.addEnvironment('WORKFLOW_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    for (const [name, value] of Object.entries(aiEnvironment(ai))) fn.function.addEnvironment(name, value);
    fn.allow(new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachine.stateMachineArn] }));
  }

  /** A route function that stops executions. */
  bindStopper(fn: ServiceFunction): void {
    fn.function.addEnvironment('WORKFLOW_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    const { name, rendered } = this.machineNameFor(fn);
    const executions = Stack.of(this).formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${name}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    fn.allow(new PolicyStatement({ actions: ['states:StopExecution'], resources: [executions] }));
    fn.acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${rendered}:*]`,
      reason: 'StopExecution names executions of the workflow state machine only: <machine>:* is the execution-name wildcard.',
    });
  }

  /**
   * The machine's name as a function's stack sees it, and as cdk-nag renders it in a finding: a
   * reference in this stack; from another stack (the dashboard's Cancel workflow) an import of an
   * export named here, so the acknowledgement can name it before synthesis.
   */
  private machineNameFor(fn: ServiceFunction): { name: string; rendered: string } {
    const stack = Stack.of(this);
    if (Stack.of(fn) === stack) {
      return {
        name: this.stateMachine.stateMachineName,
        rendered: `<${stack.getLogicalId(this.stateMachine.node.defaultChild as CfnElement)}.Name>`,
      };
    }
    const exportName = `${stack.stackName}-WorkflowStateMachineName`;
    this.exportedName ??= stack.exportValue(this.stateMachine.stateMachineName, { name: exportName });
    Stack.of(fn).addStackDependency(stack, 'stops executions of the workflow state machine');
    return { name: this.exportedName, rendered: exportName };
  }

  private exportedName?: string;
}
