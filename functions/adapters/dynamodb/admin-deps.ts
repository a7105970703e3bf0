import { systemClock } from '../../core/clock';
import type { AdminDeps } from '../../core/credentials/manage-credentials';
import type { TableRef } from './client';
import { dynamoAccountRepository } from './account-repository';
import { dynamoCredentialRepository } from './credential-repository';

/** Accounts and credentials on a table: for the CLI, the local runtime and the tests. */
export const adminDeps = (table: TableRef): AdminDeps => ({
  accounts: dynamoAccountRepository(table),
  credentials: dynamoCredentialRepository(table),
  clock: systemClock,
});
