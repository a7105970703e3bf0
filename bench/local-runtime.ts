import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminDeps } from '../functions/adapters/dynamodb/admin-deps';
import { createDocumentClient, type TableRef } from '../functions/adapters/dynamodb/client';
import type { Account } from '../functions/core/credentials/credential';
import { createAccount, createCredential } from '../functions/core/credentials/manage-credentials';
import { allScopes } from '../functions/core/credentials/scopes';
import { startLocalRuntime } from '../lib/local/runtime';
import type { ExecutionSummary } from '../lib/local/step-functions/executions';
import { deferCleanup } from './cleanup';

/** The whole service in this process on DynamoDB Local, as `npm start --in-memory` runs it. */

export interface BenchRuntime {
  /** Port of the local API on 127.0.0.1. */
  port: number;
  dynamodbEndpoint: string;
  tableName: string;
  /** A document client on the runtime's table, for set-up. */
  table: TableRef;
  /** The local Step Functions executions so far (name = workflow id, status, states entered, retries). */
  executions(): ExecutionSummary[];
  /** Messages in the runtime's delivery queue, until each one's dispatch has ended. */
  queuedDeliveries(): number;
  stop(): Promise<void>;
}

export interface BenchAccount {
  account: Account;
  /** A key (live unless asked otherwise) holding every scope. */
  key: string;
}

const region = 'us-east-1';
const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A document client on DynamoDB Local, with the runtime's own settings. */
export const localDocumentClient = (endpoint: string) => createDocumentClient({ endpoint, region, credentials: localCredentials });

export const startBenchRuntime = async (): Promise<BenchRuntime> => {
  // Read by the handlers when first loaded: set before the first request.
  process.env.RATE_LIMIT_PER_SECOND = '1e9';
  process.env.RATE_LIMIT_BURST = '1e9';
  process.env.LOG_LEVEL ??= 'ERROR';

  const dataDir = await mkdtemp(join(tmpdir(), 'pas-bench-runtime-'));
  const removeDataDir = deferCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const runtime = await startLocalRuntime({ port: 0, dataDir, inMemory: true, tableName: 'project-automation-bench' }).catch(
    async (error: unknown) => {
      await removeDataDir();
      throw error;
    },
  );
  const table = { client: localDocumentClient(runtime.dynamodbEndpoint), tableName: runtime.tableName };

  const stop = deferCleanup(async () => {
    table.client.destroy();
    try {
      await runtime.stop();
    } finally {
      await removeDataDir();
    }
  });
  return {
    port: Number(new URL(runtime.apiUrl).port),
    dynamodbEndpoint: runtime.dynamodbEndpoint,
    tableName: runtime.tableName,
    table,
    executions: () => runtime.executions(),
    queuedDeliveries: () => runtime.queuedDeliveries(),
    stop,
  };
};

let accounts = 0;

/** A fresh account and a key of `type` (live by default), made directly on the table as the CLI and the tests do. */
export const newBenchAccount = async (table: TableRef, label: string, type: 'live' | 'test' = 'live'): Promise<BenchAccount> => {
  const deps = adminDeps(table);
  accounts += 1;
  const account = await createAccount({ email: `bench-${label}-${Date.now()}-${accounts}@example.com` }, deps);
  const credential = await createCredential({ accountId: account.id, type, name: `bench ${label}`, scopes: [...allScopes] }, deps);
  return { account, key: credential.key };
};
