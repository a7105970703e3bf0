import { readFileSync } from 'node:fs';
import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';

/** The construct id of a step's function: `deploy` → `DeployFunction`. */
export const stepFunctionId = (step: string): string => `${step.charAt(0).toUpperCase()}${step.slice(1)}Function`;

export interface FunctionStateMachineProps<Key extends string> {
  /** The ASL file, also run by the local runtime. */
  definitionFile: string;
  /** Which `${…}` placeholder of the file names which function. */
  substitutionNames: Record<Key, string>;
  functions: Record<Key, ServiceFunction>;
}

/**
 * A Standard state machine (in `scope`, as `StateMachine` with its log group `StateMachineLogs`) that
 * runs an ASL file whose Tasks call `functions`: traced, logging ALL without execution data (which
 * holds only ids and small results) for a month, and allowed to invoke exactly those functions. The
 * definition names the unqualified functions: no version or alias wildcard needed.
 */
export const functionStateMachine = <Key extends string>(
  scope: Construct,
  { definitionFile, substitutionNames, functions }: FunctionStateMachineProps<Key>,
): StateMachine => {
  const logGroup = new LogGroup(scope, 'StateMachineLogs', { retention: RetentionDays.ONE_MONTH });
  const stateMachine = new StateMachine(scope, 'StateMachine', {
    stateMachineType: StateMachineType.STANDARD,
    definitionBody: DefinitionBody.fromFile(definitionFile),
    definitionSubstitutions: Object.fromEntries(
      (Object.keys(substitutionNames) as Key[]).map((key) => [substitutionNames[key], functions[key].function.functionArn]),
    ),
    // The file's own limit, as the local runtime reads it: one figure, set where the states are.
    timeout: Duration.seconds((JSON.parse(readFileSync(definitionFile, 'utf8')) as { TimeoutSeconds: number }).TimeoutSeconds),
    tracingEnabled: true,
    logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
  });
  stateMachine.addToRolePolicy(
    new PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: Object.values<ServiceFunction>(functions).map((fn) => fn.function.functionArn),
    }),
  );
  Validations.of(stateMachine).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'CloudWatch Logs delivery and X-Ray actions of Step Functions support no resource-level permissions.',
  });
  return stateMachine;
};
