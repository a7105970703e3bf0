import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { functionStateMachine, stepFunctionId } from './function-state-machine';
import { ServiceFunction } from './service-function';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const deploymentDefinitionFile = join(projectRoot, 'state-machines', 'deployment.asl.json');

export const deploymentFunctionDescriptions = {
  control: 'deployment control: start, complete, record a failure or a failed rollback',
  deploy: 'deployment step deploy: through the provider',
  health: 'deployment step health check: one probe',
  rollback: 'deployment step rollback: back to the previous completed deployment',
} as const;

type StepKey = keyof typeof deploymentFunctionDescriptions;

const substitutionNames: Record<StepKey, string> = {
  control: 'DeploymentControlFunctionArn',
  deploy: 'DeployFunctionArn',
  health: 'HealthCheckFunctionArn',
  rollback: 'RollbackFunctionArn',
};

/**
 * The steps that talk to a provider, and what each asks of the configured Lambda targets (and
 * nothing else): deploy updates the code from a package and points the alias at a new version;
 * health invokes the alias; rollback points it back. Only deploy reads the code packages.
 */
const targetActions: Partial<Record<StepKey, string[]>> = {
  deploy: [
    'lambda:GetAlias',
    'lambda:CreateAlias',
    'lambda:UpdateAlias',
    'lambda:UpdateFunctionCode',
    'lambda:GetFunctionConfiguration',
    'lambda:PublishVersion',
  ],
  health: ['lambda:InvokeFunction'],
  rollback: ['lambda:UpdateAlias'],
};

/** An unqualified Lambda function ARN: what an IAM policy names (a bare name would match nothing). */
const functionArn = /^arn:[\w-]+:lambda:[a-z0-9-]+:\d{12}:function:[\w-]{1,64}$/;

export interface DeploymentOrchestrationProps {
  table: ITableV2;
  serviceName: string;
  /** Unqualified ARNs of the functions live-mode `aws-lambda` deployments may update (context `deployLambdaTargets`). */
  lambdaTargets: string[];
  /**
   * Unqualified ARNs of the functions test-mode `aws-lambda` deployments may update (context
   * `deployLambdaTestTargets`). The provider steps may reach both lists; which one a deployment may
   * name is its mode's, checked when it is created.
   */
  lambdaTestTargets: string[];
  /** Buckets holding the code packages of `aws-lambda` deployments (context `deployCodeBuckets`). */
  codeBuckets: string[];
}

/**
 * Deployments' asynchronous half: the Standard state machine from `state-machines/deployment.asl.json`
 * (also run by the local runtime) and its four functions.
 */
export class DeploymentOrchestration extends Construct {
  readonly stateMachine: StateMachine;
  readonly functions: Record<StepKey, ServiceFunction>;
  /** The two allowed lists, as the functions that parse configs or deploy read them. */
  private readonly targetEnvironment: Record<'DEPLOY_LAMBDA_TARGETS' | 'DEPLOY_LAMBDA_TEST_TARGETS', string>;
  /** Both lists, each function once: what the provider steps may touch. */
  private readonly allTargets: string[];

  constructor(scope: Construct, id: string, props: DeploymentOrchestrationProps) {
    super(scope, id);
    for (const [name, list] of [
      ['deployLambdaTargets', props.lambdaTargets],
      ['deployLambdaTestTargets', props.lambdaTestTargets],
    ] as const) {
      const wrong = list.filter((target) => !functionArn.test(target));
      if (wrong.length > 0) {
        throw new Error(
          `${name} takes unqualified function ARNs (arn:aws:lambda:<region>:<account>:function:<name>), not ${wrong.join(', ')}`,
        );
      }
    }
    this.targetEnvironment = {
      DEPLOY_LAMBDA_TARGETS: props.lambdaTargets.join(','),
      DEPLOY_LAMBDA_TEST_TARGETS: props.lambdaTestTargets.join(','),
    };
    this.allTargets = [...new Set([...props.lambdaTargets, ...props.lambdaTestTargets])];
    const functionOf = (step: StepKey): ServiceFunction => {
      const fn = new ServiceFunction(this, stepFunctionId(step), {
        handler: `deployment-steps/${step}`,
        description: deploymentFunctionDescriptions[step],
        serviceName: props.serviceName,
        // A deploy waits for Lambda's code update; one probe or one hook call is bounded by 10 s.
        timeout: Duration.seconds(step === 'deploy' || step === 'rollback' ? 300 : 60),
      });
      fn.bindTable(props.table, 'write');
      const actions = targetActions[step];
      if (actions) this.bindTargets(fn, actions, step === 'deploy' ? props.codeBuckets : []);
      return fn;
    };
    this.functions = {
      control: functionOf('control'),
      deploy: functionOf('deploy'),
      health: functionOf('health'),
      rollback: functionOf('rollback'),
    };

    this.stateMachine = functionStateMachine(this, {
      definitionFile: deploymentDefinitionFile,
      substitutionNames,
      functions: this.functions,
    });
  }

  private bindTargets(fn: ServiceFunction, actions: string[], codeBuckets: string[]): void {
    this.bindTargetLists(fn);
    if (this.allTargets.length > 0) {
      fn.allow(
        new PolicyStatement({
          actions,
          // Aliases and versions are qualified ARNs of the same functions.
          resources: this.allTargets.flatMap((arn) => [arn, `${arn}:*`]),
        }),
      );
      for (const arn of this.allTargets) {
        fn.acknowledge({
          id: `AwsSolutions-IAM5[Resource::${arn}:*]`,
          reason: 'Aliases and versions of a configured deploy target: the qualifier is the wildcard.',
        });
      }
    }
    if (codeBuckets.length > 0) {
      const objectsOf = (bucket: string) => `arn:${Stack.of(this).partition}:s3:::${bucket}/*`;
      fn.allow(new PolicyStatement({ actions: ['s3:GetObject', 's3:GetObjectVersion'], resources: codeBuckets.map(objectsOf) }));
      for (const bucket of codeBuckets) {
        fn.acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucket}/*]`,
          reason: "Code packages of aws-lambda deployments, read by Lambda on the caller's behalf.",
        });
      }
    }
  }

  /** DEPLOY_LAMBDA_TARGETS (live mode) and DEPLOY_LAMBDA_TEST_TARGETS (test mode), for the config parsers. */
  private bindTargetLists(fn: ServiceFunction): void {
    for (const [name, value] of Object.entries(this.targetEnvironment)) fn.function.addEnvironment(name, value);
  }

  /** A route function that starts deployments or rollbacks (and checks aws-lambda targets by mode). */
  bindStarter(fn: ServiceFunction): void {
    fn.function.addEnvironment('DEPLOYMENT_STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    this.bindTargetLists(fn);
    fn.allow(new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachine.stateMachineArn] }));
  }
}
