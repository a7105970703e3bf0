import { BatchGetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ListQuery } from '../../core/pagination';
import { type Finding, type FindingRepository, type ScopeClaim, ScopeSupersededError, severityRank } from '../../core/security/finding';
import type { Tenant } from '../../core/tenancy';
import type { PendingEvent } from '../../core/workflows/workflow';
import { countMoves, isOpenCriticalFinding, moveOf, openCriticalFindingsCountKey } from './attention-counts';
import { accountOrProjectRange } from './account-or-project-list';
import type { TableRef } from './client';
import { transactUnlessFirstConditionFails } from './conditional-transaction';
import { pendingEventItems } from './event-repository';
import {
  countRange,
  counterUpdate,
  counterValue,
  createdAtFilter,
  isDateFiltered,
  isEmptyCreatedRange,
  listPage,
  type RangeSpec,
  withEqualityFilters,
} from './list-page';
import { entityTypes, ownedRecord } from './keys';
import { ownedRecordById } from './owned-record-reader';
import { projectExistsCheck } from './project-guards';
import { queryAll } from './query-all';
import * as keys from './table-keys';
import { conditionFailedAt, isConditionFailure, revisionPut, type TransactItem, withConflictRetry } from './transactions';

/** created_at bounds as a filter, for a range not ordered by creation. */
const withCreatedAt = (spec: RangeSpec, query: ListQuery | undefined): RangeSpec => {
  if (!query) return spec;
  const { expressions, values } = createdAtFilter(query);
  if (expressions.length === 0) return spec;
  const existing = spec.query.FilterExpression;
  return {
    ...spec,
    query: {
      ...spec.query,
      FilterExpression: [existing, ...expressions].filter(Boolean).join(' AND '),
      ExpressionAttributeValues: { ...spec.query.ExpressionAttributeValues, ...values },
    },
  };
};

/** The range a finding list reads: the severity index, or the account's or project's findings by creation. */
const rangeFor = (tenant: Tenant, query: ListQuery<'created_at' | 'severity'>, projectId: string | undefined): RangeSpec => {
  if (query.sort === 'severity') {
    const partition = keys.findings(tenant);
    return {
      query: { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': partition } },
      keyAttributes: ['pk', 'sk', 'gsi2pk', 'gsi2sk'],
      partition,
    };
  }
  return accountOrProjectRange(
    { ofAccount: keys.findings, ofProject: keys.findingsOfProject, sortKeyPrefix: keys.findingSortKeyPrefix, idKind: 'finding' },
    tenant,
    query,
    projectId,
  );
};

/** Claims compare as strings: the checkout's start (ISO 8601 sorts as time), then the scan id. */
const claimValue = (claim: ScopeClaim): string => `${claim.checkoutStartedAt} ${claim.scanId}`;

/** One finding by id, alone: what `GET /v1/security/findings/{id}` and its patch read. */
export const dynamoFindingReader = (table: TableRef): Pick<FindingRepository, 'get'> => ({
  get: ownedRecordById<Finding>(table, keys.finding),
});

/** The findings of an account, a project or a scan, alone: what `GET /v1/security/findings` reads. */
export const dynamoFindingList = (table: TableRef): Pick<FindingRepository, 'list'> => ({
  async list(tenant, query, filters) {
    if (isEmptyCreatedRange(query)) return { items: [], total: 0 };
    const bySeverity = query.sort === 'severity';
    const base = rangeFor(tenant, query, filters.project_id);
    // The severity index holds the whole tenant: the project and the dates become filters there.
    const spec = withCreatedAt(
      withEqualityFilters(base, {
        severity: filters.severity,
        status: filters.status,
        type: filters.type,
        scan_id: filters.scan_id,
        project_id: bySeverity ? filters.project_id : undefined,
      }),
      bySeverity ? query : undefined,
    );
    const onlyTheRange =
      !filters.severity &&
      !filters.status &&
      !filters.type &&
      !filters.scan_id &&
      !isDateFiltered(query) &&
      !(bySeverity && filters.project_id);
    const total = onlyTheRange
      ? await counterValue(table, filters.project_id ? keys.findingsOfProject(tenant, filters.project_id) : keys.findings(tenant))
      : await countRange(table, spec);
    const page = await listPage<Record<string, unknown>>(table, spec, query, total, { ...filters });
    return { ...page, items: page.items.map((item) => ownedRecord<Finding>(item)) };
  },
});

export const dynamoFindingRepository = (table: TableRef, now: () => number = Date.now): FindingRepository => {
  const { client, tableName } = table;
  const itemOf = (tenant: Tenant, finding: Finding) => ({
    ...keys.finding(tenant, finding.id),
    ...keys.findingIndexes(tenant, finding.project_id, finding.id, severityRank[finding.severity]),
    entity: entityTypes.finding,
    account_id: tenant.accountId,
    mode: tenant.mode,
    ...finding,
  });
  const eventItems = (tenant: Tenant, events: PendingEvent[]) => pendingEventItems(tableName, tenant, events, now()) as TransactItem[];
  /** The writes, and with a claim the check that its scan still holds the finding's scope, last. */
  const transactClaimed = async (tenant: Tenant, finding: Finding, claim: ScopeClaim | undefined, items: TransactItem[]) => {
    if (!claim) return transactUnlessFirstConditionFails(client, items);
    const held: TransactItem = {
      ConditionCheck: {
        TableName: tableName,
        Key: keys.findingScopeClaim(tenant, finding.project_id, finding.branch, finding.type),
        ConditionExpression: '#claim = :mine',
        ExpressionAttributeNames: { '#claim': 'claim' },
        ExpressionAttributeValues: { ':mine': claimValue(claim) },
      },
    };
    try {
      await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: [...items, held] })));
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      if (conditionFailedAt(error, items.length)) throw new ScopeSupersededError();
      throw error;
    }
  };

  return {
    ...dynamoFindingReader(table),

    ...dynamoFindingList(table),

    async ofScope(tenant, projectId, branch, type) {
      const pointers = await queryAll(table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.findingScope(tenant, projectId, branch, type) },
        ConsistentRead: true,
      });
      const ids = pointers.map((item) => item.finding_id as string);
      const findings: Finding[] = [];
      for (let i = 0; i < ids.length; i += 100) {
        let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
          [tableName]: { Keys: ids.slice(i, i + 100).map((id) => keys.finding(tenant, id)), ConsistentRead: true },
        };
        while (request && Object.keys(request).length > 0) {
          const result = await client.send(new BatchGetCommand({ RequestItems: request }));
          findings.push(...(result.Responses?.[tableName] ?? []).map((item) => ownedRecord<Finding>(item)));
          request = result.UnprocessedKeys as typeof request;
        }
      }
      return findings;
    },

    async claimScope(tenant, projectId, branch, type, claim) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.findingScopeClaim(tenant, projectId, branch, type),
            UpdateExpression: 'SET #claim = :mine, entity = :entity',
            ConditionExpression: 'attribute_not_exists(#claim) OR #claim <= :mine',
            ExpressionAttributeNames: { '#claim': 'claim' },
            ExpressionAttributeValues: { ':mine': claimValue(claim), ':entity': entityTypes.findingScopeClaim },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    create: async (tenant, finding, events, claim) =>
      transactClaimed(tenant, finding, claim, [
        {
          Put: {
            TableName: tableName,
            Item: {
              ...keys.findingPointer(tenant, finding.project_id, finding.branch, finding.type, finding.fingerprint),
              entity: entityTypes.findingPointer,
              finding_id: finding.id,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { TableName: tableName, Item: itemOf(tenant, finding), ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(tableName, keys.findings(tenant), 1),
        counterUpdate(tableName, keys.findingsOfProject(tenant, finding.project_id), 1),
        ...countMoves(tableName, openCriticalFindingsCountKey(tenant), [moveOf(isOpenCriticalFinding, undefined, finding)]),
        ...eventItems(tenant, events),
      ]),

    save: async (tenant, previous, next, events, claim) =>
      transactClaimed(tenant, next, claim, [
        revisionPut(tableName, itemOf(tenant, next), previous.revision),
        ...countMoves(tableName, openCriticalFindingsCountKey(tenant), [moveOf(isOpenCriticalFinding, previous, next)]),
        ...eventItems(tenant, events),
      ]),

    startRemediation: async (tenant, previous, next, events) => {
      const items = [
        revisionPut(tableName, itemOf(tenant, next), previous.revision),
        projectExistsCheck(tableName, tenant, next.project_id),
        ...countMoves(tableName, openCriticalFindingsCountKey(tenant), [moveOf(isOpenCriticalFinding, previous, next)]),
        ...eventItems(tenant, events),
      ];
      try {
        await withConflictRetry(() => client.send(new TransactWriteCommand({ TransactItems: items })));
        return 'started';
      } catch (error) {
        if (conditionFailedAt(error, 0)) return 'changed';
        if (conditionFailedAt(error, 1)) return 'project_gone';
        throw error;
      }
    },
  };
};
