import { fileURLToPath } from 'node:url';
import type { LocalMachineOptions } from './step-functions/local-step-functions';

type Handler = (event: unknown) => Promise<unknown>;

/**
 * A state machine as the local runtime runs it: the same ASL file as the stack, each Task calling
 * the handler module its Lambda function would run (loaded on first use). `functions` maps each
 * CDK substitution name to the handler module under `functions/handlers/`.
 */
const localMachine = (name: string, definition: string, functions: Record<string, string>): LocalMachineOptions => {
  const substitutions: Record<string, string> = {};
  const taskHandlers: LocalMachineOptions['taskHandlers'] = {};
  for (const [placeholder, module] of Object.entries(functions)) {
    const arn = `arn:aws:lambda:us-east-1:123456789012:function:${module.replace('/', '-')}`;
    substitutions[placeholder] = arn;
    let loaded: Promise<Handler> | undefined;
    taskHandlers[arn] = async (input) => {
      loaded ??= import(`../../functions/handlers/${module}.ts`).then((loadedModule: { handler: Handler }) => loadedModule.handler);
      return (await loaded)(input);
    };
  }
  return {
    name,
    definitionFile: fileURLToPath(new URL(`../../state-machines/${definition}`, import.meta.url)),
    substitutions,
    taskHandlers,
  };
};

/** The CDK stack's substitution names, each standing for one function. */
export const workflowMachine = (): LocalMachineOptions =>
  localMachine('workflow', 'workflow.asl.json', {
    WorkflowControlFunctionArn: 'workflow-stages/control',
    IntakeFunctionArn: 'workflow-stages/intake',
    BuildFunctionArn: 'workflow-stages/build',
    VerifyFunctionArn: 'workflow-stages/verify',
    ProveFunctionArn: 'workflow-stages/prove',
    IterateFunctionArn: 'workflow-stages/iterate',
    PackageFunctionArn: 'workflow-stages/package',
  });

export const deploymentMachine = (): LocalMachineOptions =>
  localMachine('deployment', 'deployment.asl.json', {
    DeploymentControlFunctionArn: 'deployment-steps/control',
    DeployFunctionArn: 'deployment-steps/deploy',
    HealthCheckFunctionArn: 'deployment-steps/health',
    RollbackFunctionArn: 'deployment-steps/rollback',
  });
