import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { monotonicFactory } from 'ulid';
import type { Tenant } from '../../core/tenancy';
import {
  isFinished,
  type LogEntry,
  type Workflow,
  type WorkflowLists,
  type WorkflowRecords,
  type WorkflowRepository,
} from '../../core/workflows/workflow';
import { countMoves, isRunningWorkflow, moveOf, runningWorkflowsCountKey } from './attention-counts';
import { listOfAccountOrProject } from './account-or-project-list';
import type { TableRef } from './client';
import { transactUnlessFirstConditionFails } from './conditional-transaction';
import { pendingEventItems } from './event-repository';
import { countRange, counterUpdate, listPage, withEqualityFilters } from './list-page';
import { activeWorkflowsAttribute, entityTypes } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectActivityUpdate } from './project-guards';
import * as keys from './table-keys';
import { conditionFailedAt } from './transactions';

// Pure: a bundle that never appends a log line (a workflow read) drops the factory.
const nextLogSortValue = /* @__PURE__ */ monotonicFactory();

const projectActivity = (tableName: string, tenant: Tenant, projectId: string, by: 1 | -1) =>
  projectActivityUpdate(tableName, tenant, projectId, activeWorkflowsAttribute, by);

const logFrom = (item: Record<string, unknown>): LogEntry => ({
  timestamp: item.timestamp as string,
  stage: (item.stage as LogEntry['stage']) ?? null,
  level: item.level as LogEntry['level'],
  message: item.message as string,
});

const logItem = (tenant: Tenant, workflowId: string, entry: LogEntry) => ({
  ...keys.workflowLog(tenant, workflowId, nextLogSortValue(Date.parse(entry.timestamp))),
  entity: entityTypes.workflowLog,
  ...entry,
});

const workflowItem = (tenant: Tenant, workflow: Workflow) => ({
  ...keys.workflow(tenant, workflow.id),
  ...keys.workflowIndexes(tenant, workflow.project_id, workflow.id),
  entity: entityTypes.workflow,
  // Whose it is, for tooling that scans (the local runtime's restart recovery).
  account_id: tenant.accountId,
  mode: tenant.mode,
  ...workflow,
});

/** One workflow by id, alone: what `GET /v1/workflows/{id}` and a deployment's artifact check read. */
export const dynamoWorkflowReader = (table: TableRef): Pick<WorkflowRecords, 'get'> => ({
  // Strongly consistent: stages and cancel read-modify-write on this.
  get: ownedRecordById<Workflow>(table, keys.workflow),
});

/**
 * A workflow's record and its log, one at a time: what creating, cancelling and the stages use.
 * Apart from the lists so that those functions carry no list paging.
 */
export const dynamoWorkflowRecords = (table: TableRef, now: () => number = Date.now): WorkflowRecords => {
  const { client, tableName } = table;

  return {
    create: async (tenant, workflow, event) =>
      transactUnlessFirstConditionFails(client, [
        projectActivity(tableName, tenant, workflow.project_id, 1),
        { Put: { TableName: tableName, Item: workflowItem(tenant, workflow), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.workflows(tenant), 1),
        counterUpdate(tableName, keys.workflowsOfProject(tenant, workflow.project_id), 1),
        ...countMoves(tableName, runningWorkflowsCountKey(tenant), [moveOf(isRunningWorkflow, undefined, workflow)]),
        ...pendingEventItems(tableName, tenant, [event], now()),
      ]),

    get: dynamoWorkflowReader(table).get,

    async save(tenant, previous, workflow, events, logs = []) {
      const finishing = !isFinished(previous.status) && isFinished(workflow.status);
      return transactUnlessFirstConditionFails(client, [
        {
          Put: {
            TableName: tableName,
            Item: workflowItem(tenant, workflow),
            ConditionExpression: '#version = :expected',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':expected': previous.version },
          },
        },
        // The project cannot be deleted while this workflow counts as active on it.
        ...(finishing ? [projectActivity(tableName, tenant, workflow.project_id, -1)] : []),
        ...countMoves(tableName, runningWorkflowsCountKey(tenant), [moveOf(isRunningWorkflow, previous, workflow)]),
        ...pendingEventItems(tableName, tenant, events, now()),
        ...logs.map((entry) => ({ Put: { TableName: tableName, Item: logItem(tenant, workflow.id, entry) } })),
      ]);
    },

    async appendLog(tenant, workflowId, entry) {
      try {
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                ConditionCheck: {
                  TableName: tableName,
                  Key: keys.workflow(tenant, workflowId),
                  ConditionExpression: '#status <> :cancelled',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':cancelled': 'cancelled' },
                },
              },
              { Put: { TableName: tableName, Item: logItem(tenant, workflowId, entry) } },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (conditionFailedAt(error, 0)) return false;
        throw error;
      }
    },
  };
};

/** The workflows of an account or project, alone: what `GET /v1/workflows` reads. */
export const dynamoWorkflowList = (table: TableRef): Pick<WorkflowLists, 'list'> => ({
  list: listOfAccountOrProject<Workflow>(table, {
    ofAccount: keys.workflows,
    ofProject: keys.workflowsOfProject,
    sortKeyPrefix: keys.workflowSortKeyPrefix,
    idKind: 'workflow',
  }),
});

/** A workflow's log, alone: what `GET /v1/workflows/{id}/logs` reads beside the workflow. */
export const dynamoWorkflowLogList = (table: TableRef): Pick<WorkflowLists, 'listLogs'> => ({
  async listLogs(tenant, workflowId, query, filters) {
    const partition = keys.workflowLogs(tenant, workflowId);
    const spec = withEqualityFilters(
      {
        query: {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': partition, ':prefix': keys.workflowLogSortKeyPrefix },
        },
        keyAttributes: ['pk', 'sk'],
        partition,
      },
      { stage: filters.stage, level: filters.level },
    );
    const page = await listPage<Record<string, unknown>>(table, spec, query, await countRange(table, spec), {
      stage: filters.stage ?? null,
      level: filters.level ?? null,
    });
    return { ...page, items: page.items.map(logFrom) };
  },
});

/** The lists: workflows of an account or project, and a workflow's log. */
export const dynamoWorkflowLists = (table: TableRef): WorkflowLists => ({
  ...dynamoWorkflowList(table),
  ...dynamoWorkflowLogList(table),
});

export const dynamoWorkflowRepository = (table: TableRef, now: () => number = Date.now): WorkflowRepository => ({
  ...dynamoWorkflowRecords(table, now),
  ...dynamoWorkflowLists(table),
});
