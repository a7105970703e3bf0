import * as v from 'valibot';
import { runVerify } from '../../core/workflows/stages/verify';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps();

export const handler = async (event: unknown): Promise<unknown> => runVerify(deps, v.parse(stageInput, event).workflow);
