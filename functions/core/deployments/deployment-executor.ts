import type { DeploymentRef } from './deployment';

/** The deployment state machine's input: deploy a new deployment, or roll the current one back. */
export interface DeploymentExecutionInput {
  action: 'deploy' | 'rollback';
  deployment: DeploymentRef;
}

export interface DeploymentExecutor {
  /** Idempotent per execution name. */
  start(input: DeploymentExecutionInput, executionName: string): Promise<void>;
}
