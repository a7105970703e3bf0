import * as v from 'valibot';
import { runBuild } from '../../core/workflows/stages/build';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps();

export const handler = async (event: unknown): Promise<unknown> => runBuild(deps, v.parse(stageInput, event).workflow);
