import type { TableRef } from '../../../functions/adapters/dynamodb/client';
import { dynamoEventRepository } from '../../../functions/adapters/dynamodb/event-repository';
import { dynamoProjectRepository } from '../../../functions/adapters/dynamodb/project-repository';
import { newId } from '../../../functions/core/ids';
import type { ListQuery } from '../../../functions/core/pagination';
import type { Finding } from '../../../functions/core/security/finding';
import type { Tenant } from '../../../functions/core/tenancy';
import type { User } from '../../../functions/core/users/user';
import type { PendingEvent } from '../../../functions/core/workflows/workflow';

/** A project in the table, as the service creates one, so records of it can be written. */
export const storeProject = async (table: TableRef, tenant: Tenant, id: string, at: string): Promise<void> => {
  await dynamoProjectRepository(table).create(tenant, {
    id,
    name: id,
    repository: 'https://git.example/r',
    description: '',
    created_at: at,
    updated_at: at,
  });
};

/** The tenant's events in the table (the outbox), as what was asked for: type and data, sorted. */
export const storedEvents = async (table: TableRef, tenant: Tenant): Promise<PendingEvent[]> => {
  const page = await dynamoEventRepository(table).list(tenant, { page: 1, perPage: 100, sort: 'created_at', order: 'asc' }, {});
  return sortedEvents(page.items.map(({ type, data }) => ({ type, data })));
};

/** Events written in one transaction share an instant: compared as a sorted list. */
export const sortedEvents = (events: PendingEvent[]): PendingEvent[] =>
  events
    .map(({ type, data }) => ({ type, data }))
    .sort((a, b) => {
      const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    });

/** The first page (or the one asked for) of a collection listed by creation. */
export const byCreation = (order: 'asc' | 'desc' = 'asc', extra: Partial<ListQuery<'created_at'>> = {}): ListQuery<'created_at'> => ({
  page: 1,
  perPage: 50,
  sort: 'created_at',
  order,
  ...extra,
});

/**
 * A secrets finding in `projectId`, found by `scanId` at `atMs`; `minute` names its file and
 * fingerprint, so findings of different minutes are different findings.
 */
export const findingRecord = (
  where: { projectId: string; scanId: string; atMs: number; minute: number },
  overrides: Partial<Finding> = {},
): Finding => {
  const at = new Date(where.atMs).toISOString();
  const { minute } = where;
  return {
    id: newId('finding', where.atMs),
    project_id: where.projectId,
    branch: 'main',
    scan_id: where.scanId,
    type: 'secrets',
    rule_id: 'aws-access-key',
    severity: 'high',
    title: 'AWS access key',
    description: 'An AWS access key is committed.',
    location: { path: `config/${minute}.env`, line: 3 },
    excerpt: 'AWS_ACCESS_KEY_ID=AKIA****',
    details: {},
    fingerprint: `fp-${minute}`,
    first_seen_at: at,
    last_seen_at: at,
    status: 'open',
    resolution: null,
    resolved_at: null,
    remediation: null,
    reopened_at: null,
    reopen_reason: null,
    created_at: at,
    updated_at: at,
    revision: 1,
    ...overrides,
  };
};

/** A user with no password and no second factor, created and last changed at `at`. */
export const userRecord = (fields: Pick<User, 'id' | 'email'> & Partial<User>, at: string): User => ({
  password_hash: null,
  totp_secret: null,
  totp_enabled_at: null,
  recovery_code_hashes: [],
  totp_last_step: null,
  created_at: at,
  updated_at: at,
  revision: 1,
  ...fields,
});
