import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, type TableRef } from '../../functions/adapters/dynamodb/client';
import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { tableQueueStore } from '../../functions/adapters/queue/table-delivery-queue';
import { useLocalDeliveryQueue } from '../../functions/adapters/runtime/delivery-queue';
import { linkUrl } from '../../functions/core/users/password-links';
import { bootstrapDefaultAccount, type CreatedCredential } from '../../functions/core/credentials/manage-credentials';
import type { Account } from '../../functions/core/credentials/credential';
import { ensureTable } from './create-table';
import { startDynamoDbLocal } from './dynamodb-local';
import { startHttpServer } from './http-server';
import { type LocalDeliveryQueue, localDeliveryQueue } from './local-delivery-queue';
import { localDeadLetterQueueArn, startQueuePoller } from './queue-poller';
import { startStreamPoller } from './stream-poller';
import { oneReaderFor, type StreamRecordLike } from '../../functions/handlers/workers/stream-consumers';
import { watchTableWrites } from './table-writes';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { removeRuntimeInfo, writeRuntimeInfo } from './runtime-file';
import { faultsFromFile } from './step-functions/fault-rules';
import { startLocalStepFunctions } from './step-functions/local-step-functions';
import type { ExecutionSummary } from './step-functions/executions';
import { deploymentMachine, workflowMachine } from './state-machines';
import { failOrphans } from './recover-orphans';
import { recountAttentionCounts } from '../../functions/adapters/dynamodb/migrations/attention-counts';
import { recountFailedWebhooks } from '../../functions/adapters/dynamodb/migrations/failed-webhook-count';
import { backfillTestObjectIndexes } from '../../functions/adapters/dynamodb/migrations/test-object-indexes';
import { removeDeliveriesOfDeletedWebhooks } from '../../functions/adapters/dynamodb/migrations/deleted-webhook-deliveries';

export interface LocalRuntimeOptions {
  port: number;
  dataDir: string;
  inMemory: boolean;
  tableName?: string;
  defaultAccountEmail?: string;
}

export interface LocalRuntime {
  apiUrl: string;
  /** The service's origin: the dashboard, the OAuth authorization server (its issuer) and the API under /v1. */
  origin: string;
  dynamodbEndpoint: string;
  tableName: string;
  /** The local Step Functions executions so far (status, state transitions), for the benchmark. */
  executions(): ExecutionSummary[];
  /** Messages in the delivery queue, sent and not yet acknowledged (a batch's are until its dispatch has ended). */
  queuedDeliveries(): number;
  /** Present on the first start only: the keys and the admin's sign-in link are shown once. */
  bootstrap?: { account: Account; liveKey: CreatedCredential; testKey: CreatedCredential; admin: { email: string; signInLink: string } };
  stop(): Promise<void>;
}

/**
 * The stream records the fan-out is given: the stack's filter (INSERTs of event items), and locally
 * also every write of a webhook, which tells the fan-out to read its account's webhooks again.
 */
const fanOutRecords = (record: StreamRecordLike): boolean => {
  const entity = (record.dynamodb?.NewImage ?? record.dynamodb?.OldImage)?.entity?.S;
  return (record.eventName === 'INSERT' && entity === entityTypes.event) || entity === entityTypes.webhook;
};

/**
 * The event-driven functions, driven as AWS drives them: the table's stream starts the fan-out and
 * its second reader (deleted webhooks' deliveries removed, password-reset e-mails sent), the
 * delivery queue the dispatcher.
 */
const startWorkers = async (options: LocalRuntimeOptions, endpoint: string, tableName: string, deliveries: LocalDeliveryQueue) => {
  const fanOut = (await import('../../functions/handlers/workers/fan-out')).handler;
  const { secondStreamReader } = await import('../../functions/handlers/workers/second-stream-reader');
  const dispatch = (await import('../../functions/handlers/workers/dispatch')).handler;
  const checkpointFile = join(options.dataDir, 'stream-checkpoint.json');
  // An in-memory table starts with a new stream: an old position would point nowhere.
  if (options.inMemory) await rm(checkpointFile, { force: true });
  const stream = await startStreamPoller({
    endpoint,
    region: localRegion,
    tableName,
    checkpointFile,
    ...oneReaderFor([{ filter: fanOutRecords, handler: fanOut }, secondStreamReader]),
    // The runtime's own writes (the API's, the workers') wake it; others are read within 250 ms.
    wake: (listener) => watchTableWrites(endpoint, listener),
  });
  await deliveries.start();
  const queue = startQueuePoller(deliveries, dispatch);
  return {
    async stop() {
      await stream.stop();
      await queue.stop();
    },
  };
};

/** The first admin user, loaded only on a first start (a restart should not pay for its modules). */
const bootstrapAdmin = async (account: Account, table: TableRef) => {
  const { peopleDeps } = await import('../../functions/adapters/dynamodb/people-deps');
  const { bootstrapAdminUser } = await import('../../functions/core/users/manage-users');
  return bootstrapAdminUser(account.id, account.email, peopleDeps(table));
};

/**
 * LOCAL_VISIBILITY_TIMEOUT (seconds, default 30): how long a message the dispatcher took stays
 * hidden, so how soon one it failed on comes back (and, after 5 receives, is a dead letter).
 */
const visibilityTimeoutFromEnvironment = (): number | undefined => {
  const seconds = Number(process.env.LOCAL_VISIBILITY_TIMEOUT);
  return process.env.LOCAL_VISIBILITY_TIMEOUT && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : undefined;
};

/** Local stand-ins for the AWS settings a deployed function receives. */
const localRegion = 'us-east-1';

/**
 * The whole service on one machine: the real DynamoDB Local, the table built from the stack's own
 * definition, and the same handler modules behind an HTTP server that speaks API Gateway's events.
 */
export const startLocalRuntime = async (options: LocalRuntimeOptions): Promise<LocalRuntime> => {
  const tableName = options.tableName ?? 'project-automation-local';
  await mkdir(join(options.dataDir, 'osv'), { recursive: true });
  // The API's request log (what the Requests page reads): its accounts live in the table, so an
  // in-memory table starts with an empty log.
  const requestLogFile = join(options.dataDir, 'logs', 'api-requests.jsonl');
  if (options.inMemory) await rm(requestLogFile, { force: true });
  const dynamodb = await startDynamoDbLocal({ inMemory: options.inMemory, dataDir: join(options.dataDir, 'dynamodb') });

  // Handlers read these when first loaded, exactly as they read their Lambda environment.
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
    AWS_REGION: localRegion,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    POWERTOOLS_LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
    // Nothing is traced here (the tracer is on in Lambda only), so the X-Ray SDK the workers load
    // keeps no context: in its default mode it tracks every promise of the process in an async
    // hook, about 5–8 % of the runtime's CPU while webhooks are delivered (docs/performance.md).
    AWS_XRAY_MANUAL_MODE: 'true',
    // E-mail goes to a folder; test-mode webhooks may target this machine (never in AWS).
    LOCAL_OUTBOX_DIR: join(options.dataDir, 'outbox'),
    // Each API request's log line, appended as a Lambda writes it to CloudWatch (the Requests page reads it).
    LOCAL_REQUEST_LOG_FILE: requestLogFile,
    LOCAL_ALLOW_PRIVATE_TEST_TARGETS: 'true',
    // Projects may name a git folder on this machine (file:///…); never in AWS. LOCAL_FILE_REPOSITORIES=false turns it off.
    LOCAL_FILE_REPOSITORIES: process.env.LOCAL_FILE_REPOSITORIES ?? 'true',
    LOCAL_DELIVERY_QUEUE: 'table',
    // The dispatcher settles the local queue's dead letters as it settles the DLQ's in AWS.
    DELIVERY_DEAD_LETTER_QUEUE_ARN: localDeadLetterQueueArn,
    // Workflow artifacts and the provenance signing key live in the data folder.
    LOCAL_ARTIFACT_DIR: join(options.dataDir, 'artifacts'),
    LOCAL_SIGNING_KEY_DIR: join(options.dataDir, 'signing'),
    AI_PROVIDERS: process.env.AI_PROVIDERS ?? 'local',
    // Scans and remediations run in this process, as the security function's asynchronous invocations.
    LOCAL_SECURITY_JOBS_MODULE: fileURLToPath(new URL('../../functions/handlers/workers/security-job.ts', import.meta.url)),
    // Test generations and runs too; the tests themselves run in sandboxed child processes.
    LOCAL_TEST_JOBS_MODULE: fileURLToPath(new URL('../../functions/handlers/workers/test-job.ts', import.meta.url)),
    LOCAL_TEST_RUNNER: 'child-process',
    // Code reviews too, as the review function's asynchronous invocations.
    LOCAL_REVIEW_JOBS_MODULE: fileURLToPath(new URL('../../functions/handlers/workers/review-job.ts', import.meta.url)),
    // Local advisories in the OSV format (a copy of the OSV database, or a test's own); OSV_ADVISORY_DIR= (empty) asks the OSV API.
    OSV_ADVISORY_DIR: process.env.OSV_ADVISORY_DIR ?? join(options.dataDir, 'osv'),
  });
  delete process.env.DELIVERY_QUEUE_URL;
  delete process.env.ARTIFACT_BUCKET;
  delete process.env.SIGNING_KEY_ID;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;

  const client = new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: localRegion,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(client, tableName);
  const table = { client: createDocumentClient({ endpoint: dynamodb.endpoint, region: localRegion }), tableName };
  // The functions that queue deliveries send them to the queue the poller reads, in this process's
  // memory; with a data folder each message is also kept in the table until it is processed, so a
  // restart loses none (an in-memory table loses the deliveries themselves).
  const deliveries = localDeliveryQueue({
    store: options.inMemory ? undefined : tableQueueStore(table),
    visibilityTimeoutMs: visibilityTimeoutFromEnvironment(),
  });
  useLocalDeliveryQueue(() => deliveries.queue);
  // Suites and runs stored before GET /v1/tests existed get its index keys (idempotent: a no-op once done).
  if (!options.inMemory) await backfillTestObjectIndexes(table);
  // Webhooks that failed before the dashboard's badge kept a counter are counted (idempotent).
  if (!options.inMemory) await recountFailedWebhooks(table);
  // So are Home's running workflows, open critical findings and deployments in progress (idempotent).
  if (!options.inMemory) await recountAttentionCounts(table);
  // Deliveries of webhooks deleted before deletion took them along are removed (idempotent).
  if (!options.inMemory) await removeDeliveriesOfDeletedWebhooks(table);
  const firstStart = await bootstrapDefaultAccount(options.defaultAccountEmail ?? 'owner@example.com', adminDeps(table));
  // The default account's first admin: a user with no password yet and a one-time link to set one.
  const admin = firstStart ? await bootstrapAdmin(firstStart.account, table) : undefined;

  const workers = await startWorkers(options, dynamodb.endpoint, tableName, deliveries);
  // Waits and retry intervals of the state machines: LOCAL_WAIT_SCALE, never the webhooks' LOCAL_TIME_SCALE.
  const timeScale = Number(process.env.LOCAL_WAIT_SCALE);
  const stepFunctions = await startLocalStepFunctions({
    machines: [workflowMachine(), deploymentMachine()],
    timeScale: Number.isFinite(timeScale) && timeScale > 0 ? timeScale : 1,
    // Failure injection for tests, as Step Functions Local's mocked errors: see the README.
    faults: faultsFromFile(process.env.LOCAL_FAULTS_FILE ?? join(options.dataDir, 'faults.json')),
    region: localRegion,
  });
  process.env.AWS_ENDPOINT_URL_SFN = stepFunctions.endpoint;
  if (!options.inMemory) await failOrphans(table);
  process.env.WORKFLOW_STATE_MACHINE_ARN = stepFunctions.stateMachineArn('workflow');
  process.env.DEPLOYMENT_STATE_MACHINE_ARN = stepFunctions.stateMachineArn('deployment');
  const http = await startHttpServer(options.port);
  const origin = `http://localhost:${http.port}`;
  // Location and Link headers, pages, e-mailed links and the OAuth issuer name this origin, exactly
  // as printed, never the client's Host header.
  process.env.PUBLIC_ORIGIN = origin;
  const apiUrl = `${origin}/v1`;
  const bootstrap =
    firstStart && admin?.link
      ? { ...firstStart, admin: { email: admin.user.email, signInLink: linkUrl(origin, admin.link.token) } }
      : undefined;
  await writeRuntimeInfo(options.dataDir, {
    apiUrl,
    dynamodbEndpoint: dynamodb.endpoint,
    tableName,
    region: localRegion,
    pid: process.pid,
  });

  let stopping: Promise<void> | undefined;
  return {
    apiUrl,
    origin,
    dynamodbEndpoint: dynamodb.endpoint,
    tableName,
    bootstrap,
    executions: () => stepFunctions.executions(),
    queuedDeliveries: () => deliveries.size(),
    stop: () =>
      (stopping ??= (async () => {
        await http.close();
        await stepFunctions.stop();
        await workers.stop();
        await removeRuntimeInfo(options.dataDir);
        await dynamodb.stop();
      })()),
  };
};
