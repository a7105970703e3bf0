import type { WorkflowRef } from './workflow';

/** The state machine's input: which workflow, and how many fix rounds it may take. */
export interface ExecutionInput {
  workflow: WorkflowRef & { project_id: string };
  max_iterations: number;
}

/** Starts and stops the state machine that runs a workflow's stages (Step Functions). */
export interface WorkflowExecutor {
  /** Idempotent: the execution is named after the workflow. */
  start(input: ExecutionInput): Promise<void>;
  /** Stopping an execution that already ended is not an error. */
  stop(workflowId: string, cause: string): Promise<void>;
}
