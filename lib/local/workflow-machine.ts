import { fileURLToPath } from 'node:url';
import type { LocalMachineOptions } from './step-functions/local-step-functions';

const definitionFile = fileURLToPath(new URL('../../state-machines/workflow.asl.json', import.meta.url));

/** The CDK stack's substitution names, each standing for one stage function. */
const stageFunctions = {
  WorkflowControlFunctionArn: 'control',
  IntakeFunctionArn: 'intake',
  BuildFunctionArn: 'build',
  VerifyFunctionArn: 'verify',
  ProveFunctionArn: 'prove',
  IterateFunctionArn: 'iterate',
  PackageFunctionArn: 'package',
} as const;

const localFunctionArn = (name: string): string => `arn:aws:lambda:us-east-1:123456789012:function:workflow-${name}`;

type Handler = (event: unknown) => Promise<unknown>;

/**
 * The workflow state machine as the local runtime runs it: the same ASL file, each Task calling
 * the same handler module its Lambda function would run, loaded on first use.
 */
export const workflowMachine = (): LocalMachineOptions => {
  const substitutions: Record<string, string> = {};
  const taskHandlers: LocalMachineOptions['taskHandlers'] = {};
  for (const [placeholder, stage] of Object.entries(stageFunctions)) {
    const arn = localFunctionArn(stage);
    substitutions[placeholder] = arn;
    let loaded: Promise<Handler> | undefined;
    taskHandlers[arn] = async (input) => {
      loaded ??= import(`../../functions/handlers/workflow-stages/${stage}.ts`).then((module: { handler: Handler }) => module.handler);
      return (await loaded)(input);
    };
  }
  return { name: 'workflow', definitionFile, substitutions, taskHandlers };
};
