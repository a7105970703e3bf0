import * as v from 'valibot';
import { systemClock } from '../../core/clock';
import { completeWorkflow, failWorkflow, skipWorkflowStage, startWorkflow } from '../../core/workflows/stages/control';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';
import { controlInput } from './stage-input';
import { checkAutoDeploy, type AutoDeployWatch } from '../../core/workflows/stages/auto-deploy';
import { autoDeployWatchFromEnvironment } from './auto-deployer';
import { tracedTable } from '../../observability/tracer';

const deps = { workflows: dynamoWorkflowRepository(tracedTable(tableFromEnvironment())), clock: systemClock };

/** Made on first use: only workflows with auto_deploy read deployments. */
let watch: AutoDeployWatch | undefined;

/** The state machine's bookkeeping steps: start, skip a stage, complete, look at an auto_deploy, record a failure. */
export const handler = async (event: unknown): Promise<unknown> => {
  const input = v.parse(controlInput, event);
  switch (input.action) {
    case 'start':
      return startWorkflow(deps, input.workflow, input.max_iterations);
    case 'skip_stage':
      return skipWorkflowStage(deps, input.workflow, input.stage);
    case 'complete':
      return completeWorkflow(deps, input.workflow);
    case 'check_auto_deploy':
      watch ??= autoDeployWatchFromEnvironment();
      return checkAutoDeploy({ ...deps, watch }, input.workflow, input.deployment_id);
    case 'fail':
      return failWorkflow(deps, input.workflow, input.error);
  }
};
