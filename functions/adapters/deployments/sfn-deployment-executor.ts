import { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { DeploymentExecutor } from '../../core/deployments/deployment-executor';

/** Runs deployments and rollbacks on the deployment state machine (locally: the runtime's Step Functions endpoint). */
export const sfnDeploymentExecutor = (stateMachineArn: string, client = new SFNClient({})): DeploymentExecutor => ({
  async start(input, executionName) {
    try {
      await client.send(new StartExecutionCommand({ stateMachineArn, name: executionName, input: JSON.stringify(input) }));
    } catch (error) {
      // The name is the deployment's (or its rollback's): already started means started.
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  },
});

export const deploymentExecutorFromEnvironment = (env: NodeJS.ProcessEnv = process.env): DeploymentExecutor => {
  const arn = env.DEPLOYMENT_STATE_MACHINE_ARN;
  if (!arn) throw new Error('DEPLOYMENT_STATE_MACHINE_ARN is not set');
  return sfnDeploymentExecutor(arn);
};
