import type { WorkflowExecutor } from '../../core/workflows/workflow-executor';
import type { AwsJsonCall } from '../aws/aws-json-call';
import { isAwsServiceError } from '../aws/signed-aws-request';
import { stepFunctionsCall } from '../aws/step-functions-call';

/** An execution's ARN follows from its machine's and its name. */
export const executionArnOf = (stateMachineArn: string, name: string): string =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

/**
 * Runs workflows on the Step Functions state machine. Locally the same code talks to the local
 * runtime's Step Functions endpoint (`AWS_ENDPOINT_URL_SFN`).
 */
export const sfnWorkflowExecutor = (stateMachineArn: string, call: AwsJsonCall = stepFunctionsCall()): WorkflowExecutor => ({
  async start(input) {
    try {
      await call('StartExecution', { stateMachineArn, name: input.workflow.id, input: JSON.stringify(input) });
    } catch (error) {
      // The same name with the same input is answered without error; anything else is a real clash.
      if (!isAwsServiceError(error, 'ExecutionAlreadyExists')) throw error;
    }
  },

  async stop(workflowId, cause) {
    try {
      await call('StopExecution', { executionArn: executionArnOf(stateMachineArn, workflowId), cause });
    } catch (error) {
      if (!isAwsServiceError(error, 'ExecutionDoesNotExist')) throw error;
    }
  },
});

export const workflowExecutorFromEnvironment = (env: NodeJS.ProcessEnv = process.env): WorkflowExecutor => {
  const arn = env.WORKFLOW_STATE_MACHINE_ARN;
  if (!arn) throw new Error('WORKFLOW_STATE_MACHINE_ARN is not set');
  return sfnWorkflowExecutor(arn);
};
