import * as v from 'valibot';
import { runProve } from '../../core/workflows/stages/prove';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps();

export const handler = async (event: unknown): Promise<unknown> => runProve(deps, v.parse(stageInput, event).workflow);
