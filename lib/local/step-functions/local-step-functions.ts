import './promise-with-resolvers';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import {
  runnableDefinition,
  scaledWait,
  secondsPathWaits,
  taskResources,
  unsupportedFeatures,
  type AslDefinition,
} from './definition-states';
import { createExecutionStore, type ExecutionSummary, type LocalMachine } from './executions';
import { createFaultInjector, type FaultRules } from './fault-rules';
import { startJsonProtocolServer } from './json-protocol-server';
import type { TaskHandler } from './task-handlers';
import { InvalidDefinitionError, loadDefinitionFile } from './validate-definition';

export interface LocalMachineOptions {
  name: string;
  /** An ASL file, with `${Placeholder}`s as for CDK's DefinitionBody.fromFile. */
  definitionFile: string;
  /** The CDK definitionSubstitutions, with local values (e.g. the ARNs keyed in taskHandlers). */
  substitutions: Record<string, string>;
  /** Substituted Task Resource → what its Lambda function does. Every Task's Resource needs one. */
  taskHandlers: Record<string, TaskHandler>;
}

export interface LocalStepFunctionsOptions {
  machines: LocalMachineOptions[];
  /** Multiplies Wait `Seconds` and Retry intervals (0.01 = a hundred times faster). Default 1. */
  timeScale?: number;
  /** Read before each Task invocation; see faultsFromFile. */
  faults?: () => FaultRules;
  /** Default: a free port. Bound to 127.0.0.1 only. */
  port?: number;
  region?: string;
}

export interface LocalStepFunctions {
  /** For `AWS_ENDPOINT_URL_SFN` or the SFNClient `endpoint` option. */
  endpoint: string;
  stateMachineArn(name: string): string;
  executions(): ExecutionSummary[];
  /** Aborts running executions and closes the endpoint. Safe to call more than once. */
  stop(): Promise<void>;
}

const localAccount = '123456789012';

const loadMachine = (options: LocalMachineOptions, timeScale: number, arn: string): LocalMachine => {
  const definition = loadDefinitionFile(options.definitionFile, options.substitutions) as AslDefinition;
  const problems = unsupportedFeatures(definition).map((feature) => `UNSUPPORTED_LOCALLY: ${feature}`);
  const taskHandlers = new Map<string, TaskHandler>();
  for (const [state, resource] of taskResources(definition)) {
    const handler = options.taskHandlers[resource];
    // Without a handler aws-local-stepfunctions would invoke the real Lambda in AWS.
    if (handler) taskHandlers.set(state, handler);
    else problems.push(`NO_TASK_HANDLER: Task ${state} has Resource ${resource}, which taskHandlers does not name`);
  }
  if (problems.length > 0) throw new InvalidDefinitionError(options.definitionFile, problems);
  if (timeScale !== 1) for (const state of secondsPathWaits(definition)) taskHandlers.set(state, scaledWait(timeScale));

  // Validated above with the project's asl-validator; the scaled copy may hold fractional seconds.
  const runnable = runnableDefinition(definition, timeScale) as unknown as StateMachineDefinition;
  const stateMachine = new StateMachine(runnable, { validationOptions: { noValidate: true } });
  return { name: options.name, arn, stateMachine, taskHandlers };
};

/**
 * A local Step Functions endpoint: the same JSON 1.0 calls as in AWS (StartExecution,
 * StopExecution, DescribeExecution), each execution run by aws-local-stepfunctions in this process
 * with the Task states calling the given handlers.
 */
export const startLocalStepFunctions = async (options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> => {
  const region = options.region ?? 'us-east-1';
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale >= 0)) throw new Error(`timeScale must be 0 or more, not ${timeScale}`);

  const arnOf = (name: string) => `arn:aws:states:${region}:${localAccount}:stateMachine:${name}`;
  const machines = new Map(options.machines.map((machine) => [arnOf(machine.name), loadMachine(machine, timeScale, arnOf(machine.name))]));
  const store = createExecutionStore({
    machines,
    faults: createFaultInjector(options.faults ?? (() => [])),
    region,
    account: localAccount,
  });
  const server = await startJsonProtocolServer(
    {
      StartExecution: store.start,
      StopExecution: store.stop,
      DescribeExecution: store.describe,
    },
    options.port,
  );

  let stopping: Promise<void> | undefined;
  return {
    endpoint: server.endpoint,
    stateMachineArn(name) {
      const arn = arnOf(name);
      if (!machines.has(arn)) throw new Error(`No local state machine named ${name}`);
      return arn;
    },
    executions: () => store.summaries(),
    stop: () =>
      (stopping ??= (async () => {
        store.stopAll();
        await server.close();
      })()),
  };
};

export { faultsFromFile, writeFaultsFile, type FaultRule, type FaultRules } from './fault-rules';
export type { ExecutionSummary } from './executions';
