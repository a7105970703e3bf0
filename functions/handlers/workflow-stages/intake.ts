import * as v from 'valibot';
import { runIntake } from '../../core/workflows/stages/intake';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps();

export const handler = async (event: unknown): Promise<unknown> => runIntake(deps, v.parse(stageInput, event).workflow);
