import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDeploymentRepository } from '../../functions/adapters/dynamodb/deployment-repository';
import { recordFailure, recordRollbackFailure, stepReached } from '../../functions/core/deployments/deployment-steps';
import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { dynamoWorkflowRepository } from '../../functions/adapters/dynamodb/workflow-repository';
import { systemClock } from '../../functions/core/clock';
import { applyTransition } from '../../functions/core/workflows/apply-transition';
import { failRun } from '../../functions/core/workflows/transitions';
import type { Mode } from '../../functions/core/tenancy';
import { failOrphanedJobs } from './recover-jobs';
import { failOrphanedReviews } from './recover-reviews';

/** Id, account and mode of every item of an entity that matches `filter`. */
export const scanFor = async function* (
  table: TableRef,
  entity: string,
  filter: string,
  names: Record<string, string>,
  values: Record<string, unknown>,
) {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: `entity = :entity AND (${filter})`,
        ExpressionAttributeNames: { '#mode': 'mode', ...names },
        ExpressionAttributeValues: { ':entity': entity, ...values },
        ConsistentRead: true,
        ProjectionExpression: 'id, account_id, #mode',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) yield { id: item.id as string, account_id: item.account_id as string, mode: item.mode as Mode };
    startKey = page.LastEvaluatedKey;
  } while (startKey);
};

/**
 * The local Step Functions endpoint keeps executions in memory: after a restart, the workflows and
 * deployments that were under way have no execution left (and reviews, scans, remediations and
 * test jobs, which run in the runtime's process, no process). Rather than leave them running forever
 * (and a deployment's lock held), they fail with their event, saying why. In AWS, Standard
 * executions survive restarts of anything and this never runs.
 */
export const failOrphans = async (table: TableRef): Promise<number> => {
  const deployments = dynamoDeploymentRepository(table);
  const deps = { deployments, clock: systemClock };
  let failed = await failOrphanedWorkflows(table);
  failed += await failOrphanedReviews(table, scanFor);
  failed += await failOrphanedJobs(table, scanFor);
  for await (const ref of scanFor(
    table,
    entityTypes.deployment,
    '#status IN (:queued, :running)',
    { '#status': 'status' },
    { ':queued': 'queued', ':running': 'in_progress' },
  )) {
    const orphan = await deployments.get({ accountId: ref.account_id, mode: ref.mode }, ref.id);
    if (!orphan) continue;
    // Nothing is left to run an automatic rollback: none is recorded as under way.
    const message = orphan.deployed
      ? 'The local runtime stopped while this deployment ran, after it was deployed: nothing was rolled back, so its code may be live; create it again.'
      : 'The local runtime stopped while this deployment ran; create it again.';
    await recordFailure(deps, ref, { step: stepReached(orphan), message }, { rollBack: false });
    failed += 1;
  }
  for await (const ref of scanFor(
    table,
    entityTypes.deployment,
    '#rollback.#status = :inProgress',
    { '#rollback': 'rollback', '#status': 'status' },
    { ':inProgress': 'in_progress' },
  )) {
    await recordRollbackFailure(deps, ref, 'The local runtime stopped while this rollback ran; request it again.');
    failed += 1;
  }
  return failed;
};

const failOrphanedWorkflows = async (table: TableRef): Promise<number> => {
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
        failRun(
          workflow,
          {
            stage: workflow.status === 'queued' ? null : undefined,
            message: 'The local runtime stopped while this workflow ran; create it again.',
          },
          nowIso,
        ),
      );
      failed += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return failed;
};
