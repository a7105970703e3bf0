import * as v from 'valibot';
import { runIterate } from '../../core/workflows/stages/iterate';
import { stageDeps } from './stage-deps';
import { iterateInput } from './stage-input';

const deps = stageDeps();

export const handler = async (event: unknown): Promise<unknown> => {
  const input = v.parse(iterateInput, event);
  return runIterate(deps, input.workflow, input.iteration);
};
