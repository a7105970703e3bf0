import { adminDeps } from '../../../functions/adapters/dynamodb/admin-deps';
import { createDocumentClient, type TableRef } from '../../../functions/adapters/dynamodb/client';
import type { Account } from '../../../functions/core/credentials/credential';
import { createAccount, createCredential, type CreatedCredential } from '../../../functions/core/credentials/manage-credentials';
import { allScopes, type Scope } from '../../../functions/core/credentials/scopes';
import { readRuntimeInfo } from '../../../lib/local/runtime-file';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export const apiUrl = (): string => {
  const url = process.env.IT_API_URL;
  if (!url) throw new Error('the integration global set-up did not run');
  return url;
};

let table: TableRef | undefined;

/** The runtime's own table, for set-up that has no API yet (accounts and keys, as the CLI does). */
export const runtimeTable = async (): Promise<TableRef> => {
  if (!table) {
    const info = await readRuntimeInfo(process.env.IT_DATA_DIR as string);
    if (!info) throw new Error('the local runtime is not running');
    table = {
      client: createDocumentClient({
        endpoint: info.dynamodbEndpoint,
        region: info.region,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
      tableName: info.tableName,
    };
  }
  return table;
};

export interface TestAccount {
  account: Account;
  live: CreatedCredential;
  test: CreatedCredential;
  newKey(type: 'live' | 'test' | 'ro' | 'pat', scopes?: Scope[]): Promise<CreatedCredential>;
}

let counter = 0;

/** A fresh account with a live and a test key holding every scope. */
export const newAccount = async (): Promise<TestAccount> => {
  const deps = adminDeps(await runtimeTable());
  counter += 1;
  const account = await createAccount({ email: `it-${Date.now()}-${counter}-${Math.random().toString(36).slice(2)}@example.com` }, deps);
  const newKey = (type: 'live' | 'test' | 'ro' | 'pat', scopes: Scope[] = [...allScopes]) =>
    createCredential({ accountId: account.id, type, name: `${type} key`, scopes }, deps);
  return { account, live: await newKey('live'), test: await newKey('test'), newKey };
};

afterAll(() => {
  table?.client.destroy();
  table = undefined;
});
