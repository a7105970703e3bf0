import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { dynamoWorkflowRepository } from '../../functions/adapters/dynamodb/workflow-repository';
import { systemClock } from '../../functions/core/clock';
import { applyTransition } from '../../functions/core/workflows/apply-transition';
import { failRun } from '../../functions/core/workflows/transitions';
import type { Mode } from '../../functions/core/tenancy';

/**
 * The local Step Functions endpoint keeps executions in memory: after a restart, workflows that
 * were queued or running have no execution left. Rather than leave them running forever, they
 * fail (with their event) saying why; in AWS, Standard executions survive and this never runs.
 */
export const failOrphanedWorkflows = async (table: TableRef): Promise<number> => {
  const workflows = dynamoWorkflowRepository(table);
  let failed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'entity = :workflow AND #status IN (:queued, :running)',
        ExpressionAttributeNames: { '#status': 'status', '#mode': 'mode' },
        ExpressionAttributeValues: { ':workflow': entityTypes.workflow, ':queued': 'queued', ':running': 'running' },
        ProjectionExpression: 'id, account_id, #mode',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const tenant = { accountId: item.account_id as string, mode: item.mode as Mode };
      await applyTransition({ workflows, clock: systemClock }, tenant, item.id as string, (workflow, nowIso) =>
        failRun(workflow, { stage: workflow.status === 'queued' ? null : undefined, message: 'The local runtime stopped while this workflow ran; create it again.' }, nowIso),
      );
      failed += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return failed;
};
