import type { ExecutionInput, WorkflowExecutor } from '../../../functions/core/workflows/workflow-executor';

/** Records what the use cases ask of Step Functions; `failStart` / `failStop` make the calls throw. */
export const fakeWorkflowExecutor = () => {
  const started: ExecutionInput[] = [];
  const stopped: Array<{ workflowId: string; cause: string }> = [];
  const behaviour = { failStart: false, failStop: false };
  const executor: WorkflowExecutor = {
    async start(input) {
      started.push(structuredClone(input));
      if (behaviour.failStart) throw new Error('StartExecution failed: service unavailable');
    },
    async stop(workflowId, cause) {
      stopped.push({ workflowId, cause });
      if (behaviour.failStop) throw new Error('StopExecution failed: service unavailable');
    },
  };
  return { ...executor, started, stopped, behaviour };
};
