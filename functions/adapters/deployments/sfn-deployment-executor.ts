import type { DeploymentExecutor } from '../../core/deployments/deployment-executor';
import type { AwsJsonCall } from '../aws/aws-json-call';
import { isAwsServiceError } from '../aws/signed-aws-request';
import { stepFunctionsCall } from '../aws/step-functions-call';

/** Runs deployments and rollbacks on the deployment state machine (locally: the runtime's Step Functions endpoint). */
export const sfnDeploymentExecutor = (stateMachineArn: string, call: AwsJsonCall = stepFunctionsCall()): DeploymentExecutor => ({
  async start(input, executionName) {
    try {
      await call('StartExecution', { stateMachineArn, name: executionName, input: JSON.stringify(input) });
    } catch (error) {
      // The name is the deployment's (or its rollback's): already started means started.
      if (!isAwsServiceError(error, 'ExecutionAlreadyExists')) throw error;
    }
  },
});

export const deploymentExecutorFromEnvironment = (env: NodeJS.ProcessEnv = process.env): DeploymentExecutor => {
  const arn = env.DEPLOYMENT_STATE_MACHINE_ARN;
  if (!arn) throw new Error('DEPLOYMENT_STATE_MACHINE_ARN is not set');
  return sfnDeploymentExecutor(arn);
};
