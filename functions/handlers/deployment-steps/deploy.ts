import * as v from 'valibot';
import { runDeploy } from '../../core/deployments/deployment-steps';
import { stepDeps } from './step-deps';
import { stepInput } from './step-input';

const deps = stepDeps();

export const handler = async (event: unknown): Promise<unknown> => runDeploy(deps, v.parse(stepInput, event).deployment);
