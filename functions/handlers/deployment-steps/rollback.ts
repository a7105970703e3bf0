import * as v from 'valibot';
import { runRollback } from '../../core/deployments/deployment-steps';
import { stepDeps } from './step-deps';
import { stepInput } from './step-input';

const deps = stepDeps();

export const handler = async (event: unknown): Promise<unknown> => {
  await runRollback(deps, v.parse(stepInput, event).deployment);
  return {};
};
