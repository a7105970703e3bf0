import type { DeploymentExecutionInput, DeploymentExecutor } from '../../../functions/core/deployments/deployment-executor';

/** Records the executions the use cases start; `failStart` makes start throw (after recording). */
export const fakeDeploymentExecutor = () => {
  const started: Array<{ input: DeploymentExecutionInput; name: string }> = [];
  const behaviour = { failStart: false };
  const executor: DeploymentExecutor = {
    async start(input, executionName) {
      started.push({ input: structuredClone(input), name: executionName });
      if (behaviour.failStart) throw new Error('StartExecution failed: service unavailable');
    },
  };
  return { ...executor, started, behaviour };
};
