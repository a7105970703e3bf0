import * as v from 'valibot';
import { completeDeployment, failFromCatch, recordRollbackFailure, startDeployment } from '../../core/deployments/deployment-steps';
import { failureMessage } from '../../core/workflows/stages/control';
import { stepDeps } from './step-deps';
import { controlInput } from './step-input';

const deps = stepDeps();

/** The deployment state machine's bookkeeping: start, complete, record a failure or a failed rollback. */
export const handler = async (event: unknown): Promise<unknown> => {
  const input = v.parse(controlInput, event);
  switch (input.action) {
    case 'start':
      await startDeployment(deps, input.deployment);
      return {};
    case 'complete':
      await completeDeployment(deps, input.deployment);
      return {};
    case 'fail':
      return failFromCatch(deps, input.deployment, input.error);
    case 'rollback_failed':
      await recordRollbackFailure(deps, input.deployment, failureMessage(input.error));
      return {};
  }
};
