import * as v from 'valibot';
import { runPackage } from '../../core/workflows/stages/package';
import { imageBuilderFromEnvironment } from '../../adapters/images/codebuild-image-builder';
import { autoDeployerFromEnvironment } from './auto-deployer';
import { stageDeps } from './stage-deps';
import { stageInput } from './stage-input';

const deps = stageDeps({ autoDeployer: autoDeployerFromEnvironment(), imageBuilder: imageBuilderFromEnvironment() });

export const handler = async (event: unknown): Promise<unknown> => runPackage(deps, v.parse(stageInput, event).workflow);
