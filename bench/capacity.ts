import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../functions/adapters/dynamodb/client';
import { dynamoCredentialRepository } from '../functions/adapters/dynamodb/credential-repository';
import { dynamoProjectRepository } from '../functions/adapters/dynamodb/project-repository';
import { systemClock } from '../functions/core/clock';
import { resolveCredential } from '../functions/core/credentials/resolve-credential';
import type { Page } from '../functions/core/pagination';
import type { Project } from '../functions/core/projects/project';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  type ProjectDeps,
  updateProject,
} from '../functions/core/projects/project-use-cases';
import type { Principal, Tenant } from '../functions/core/tenancy';
import { toListQuery } from '../functions/http/list-query';
import { localDocumentClient, newBenchAccount } from './local-runtime';

/**
 * DynamoDB capacity per API operation, measured on DynamoDB Local with ReturnConsumedCapacity
 * TOTAL, through the same code paths the handlers run: the credential check, then the use case on
 * the DynamoDB repository.
 */

export interface Units {
  read: number;
  write: number;
  /** The DynamoDB commands sent, e.g. `GetCommand`. */
  calls: string[];
}

export interface CapacityRow {
  operation: string;
  /** The route whose DynamoDB work this is, or what was measured. */
  detail: string;
  credential: Units;
  work: Units;
  total: { read: number; write: number };
}

export interface CapacityReport {
  rows: CapacityRow[];
  projectsSeeded: number;
  seedMs: number;
  perPage: number;
  deepPage: number;
  /** The deep page read by walking cursors and by jumping straight to it hold the same projects. */
  walkAndJumpAgree: boolean;
  itemsOnDeepPage: number;
}

export interface CapacitySettings {
  projects: number;
  perPage: number;
  deepPage: number;
  seedConcurrency: number;
}

const readCommand = /^(Get|Query|Scan|BatchGet|TransactGet)/;

const emptyUnits = (): Units => ({ read: 0, write: 0, calls: [] });

const addConsumed = (units: Units, command: string, consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): void => {
  for (const entry of [consumed ?? []].flat()) {
    const total = entry.CapacityUnits ?? 0;
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      units.read += entry.ReadCapacityUnits ?? 0;
      units.write += entry.WriteCapacityUnits ?? 0;
    } else if (readCommand.test(command)) units.read += total;
    else units.write += total;
  }
};

/** Asks every command of `client` for its consumed capacity, and tallies it while `measure` runs. */
const meterClient = (client: DynamoDBDocumentClient) => {
  let tally: Units | undefined;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const command = context.commandName ?? 'command';
      const current = tally;
      current?.calls.push(command);
      const result = await next(args);
      if (current)
        addConsumed(current, command, (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity);
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  return {
    async measure<T>(work: () => Promise<T>): Promise<{ result: T; units: Units }> {
      const units = emptyUnits();
      tally = units;
      try {
        return { result: await work(), units };
      } finally {
        tally = undefined;
      }
    },
  };
};

type Meter = ReturnType<typeof meterClient>;

/** One API request's DynamoDB work: its credential check, then its operation. */
const measureRequest = async <T>(
  meter: Meter,
  authenticate: () => Promise<Principal>,
  [operation, detail]: readonly [string, string],
  work: (principal: Principal) => Promise<T>,
  { warm = true } = {},
): Promise<{ row: CapacityRow; result: T }> => {
  // The request before: records the key's use, so this one is the steady state (no last_used_at write).
  if (warm) await authenticate();
  const credential = await meter.measure(authenticate);
  const done = await meter.measure(() => work(credential.result));
  return {
    result: done.result,
    row: {
      operation,
      detail,
      credential: credential.units,
      work: done.units,
      total: { read: credential.units.read + done.units.read, write: credential.units.write + done.units.write },
    },
  };
};

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'TransactionConflictException' ||
    (error.name === 'TransactionCanceledException' && /TransactionConflict/.test(error.message)));

/** `count` projects in `tenant`, `concurrency` at a time; a create that loses a race on the counter is retried. */
const seedProjects = async (tenant: Tenant, count: number, concurrency: number, deps: ProjectDeps): Promise<void> => {
  let next = 0;
  const createOne = async (i: number): Promise<void> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await createProject(tenant, { name: `seed ${String(i).padStart(4, '0')}`, repository: `https://github.com/bench/seed-${i}` }, deps);
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  };
  const worker = async (): Promise<void> => {
    while (next < count) await createOne(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
};

const ids = (page: Page<Project>): string => page.items.map((p) => p.id).join(',');

type Request = <T>(
  label: readonly [string, string],
  work: (principal: Principal) => Promise<T>,
  options?: { warm: boolean },
) => Promise<{ row: CapacityRow; result: T }>;

/** The credential check alone, then create, get, update and delete of one project. */
const measureSingleItemOperations = async (request: Request, deps: ProjectDeps): Promise<CapacityRow[]> => {
  const none = async (): Promise<void> => undefined;
  const rows = [
    (await request(['credential check, first use', 'first request with a new key: writes last_used_at'], none, { warm: false })).row,
    (await request(['credential check, steady', 'key used < 60 s ago: read only'], none)).row,
  ];
  const created = await request(['create', 'POST /v1/projects'], (p) =>
    createProject(p, { name: 'capacity probe', repository: 'https://github.com/bench/probe', description: 'measured' }, deps),
  );
  const id = created.result.id;
  rows.push(created.row);
  rows.push((await request(['get', 'GET /v1/projects/{id}'], (p) => getProject(p, id, deps))).row);
  rows.push(
    (await request(['update', 'PATCH /v1/projects/{id} (name)'], (p) => updateProject(p, id, { name: 'capacity probe 2' }, deps))).row,
  );
  rows.push((await request(['delete', 'DELETE /v1/projects/{id}'], (p) => deleteProject(p, id, deps))).row);
  return rows;
};

/** Page 1, the deep page reached through the cursors, and the deep page jumped to. */
const measureLists = async (request: Request, tenant: Tenant, deps: ProjectDeps, { perPage, deepPage, projects }: CapacitySettings) => {
  const listQuery = (page: number, cursor?: string) => toListQuery({ page, per_page: perPage, cursor }, 'created_at');
  const first = await request(['list page 1', `GET /v1/projects?per_page=${perPage} (${projects} projects)`], (p) =>
    listProjects(p, listQuery(1), deps),
  );
  let cursor = first.result.nextCursor;
  for (let page = 2; page < deepPage; page += 1) cursor = (await listProjects(tenant, listQuery(page, cursor), deps)).nextCursor;
  const walked = await request([`list page ${deepPage}, walking`, `the ${deepPage}th page alone, reached through the next cursors`], (p) =>
    listProjects(p, listQuery(deepPage, cursor), deps),
  );
  const jumped = await request(
    [`list page ${deepPage}, jumping`, `GET /v1/projects?page=${deepPage}&per_page=${perPage}, no cursor`],
    (p) => listProjects(p, listQuery(deepPage), deps),
  );
  return {
    rows: [first.row, walked.row, jumped.row],
    walkAndJumpAgree: ids(walked.result) === ids(jumped.result),
    itemsOnDeepPage: walked.result.items.length,
  };
};

export const measureCapacity = async (endpoint: string, tableName: string, settings: CapacitySettings): Promise<CapacityReport> => {
  const meteredClient = localDocumentClient(endpoint);
  const plainClient = localDocumentClient(endpoint);
  try {
    const metered: TableRef = { client: meteredClient, tableName };
    const plain: TableRef = { client: plainClient, tableName };
    const meter = meterClient(meteredClient);
    const { key } = await newBenchAccount(plain, 'capacity');
    const authDeps = { credentials: dynamoCredentialRepository(metered), clock: systemClock };
    const projectDeps: ProjectDeps = { projects: dynamoProjectRepository(metered), clock: systemClock, repositoryProblem: () => null };
    const authenticate = () => resolveCredential({ authorization: `Bearer ${key}` }, authDeps);
    const request: Request = (label, work, options) => measureRequest(meter, authenticate, label, work, options);

    const singleItemRows = await measureSingleItemOperations(request, projectDeps);

    const tenant = await authenticate();
    const seedStarted = performance.now();
    await seedProjects(tenant, settings.projects, settings.seedConcurrency, {
      projects: dynamoProjectRepository(plain),
      clock: systemClock,
      repositoryProblem: () => null,
    });
    const seedMs = performance.now() - seedStarted;

    const lists = await measureLists(request, tenant, projectDeps, settings);
    return {
      rows: [...singleItemRows, ...lists.rows],
      projectsSeeded: settings.projects,
      seedMs,
      perPage: settings.perPage,
      deepPage: settings.deepPage,
      walkAndJumpAgree: lists.walkAndJumpAgree,
      itemsOnDeepPage: lists.itemsOnDeepPage,
    };
  } finally {
    meteredClient.destroy();
    plainClient.destroy();
  }
};
