import type { EventBridgeEvent } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import { recordEndedExecution } from '../../core/executions/execution-ended';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoDeploymentRepository } from '../../adapters/dynamodb/deployment-repository';
import { dynamoWorkflowRepository } from '../../adapters/dynamodb/workflow-repository';
import { logger } from '../../observability/logger';
import { tracedTable } from '../../observability/tracer';

const table = tracedTable(tableFromEnvironment());
const deps = { workflows: dynamoWorkflowRepository(table), deployments: dynamoDeploymentRepository(table), clock: systemClock };

interface ExecutionStatusChange {
  executionArn: string;
  status: string;
  input: string | null;
}

/** EventBridge: "Step Functions Execution Status Change" for FAILED, TIMED_OUT and ABORTED executions of the service's machines. */
export const handler = async (event: EventBridgeEvent<'Step Functions Execution Status Change', ExecutionStatusChange>): Promise<void> => {
  let input: unknown;
  try {
    input = event.detail.input ? JSON.parse(event.detail.input) : null;
  } catch {
    input = null;
  }
  const what = await recordEndedExecution(deps, { status: event.detail.status, input });
  logger.info('execution ended', { executionArn: event.detail.executionArn, status: event.detail.status, recorded: what });
};
