import { type Clock, isoTime } from '../clock';
import { notFound, validationError } from '../errors';
import { newId } from '../ids';
import type { Account, AccountRepository, Credential, CredentialRepository, CredentialView } from './credential';
import { viewOfCredential } from './credential';
import { type CredentialType, generateCredentialValue, hashCredentialValue, redactCredentialValue } from './key-format';
import { allScopes, isReadScope, isScope, type Scope } from './scopes';

export interface AdminDeps {
  accounts: AccountRepository;
  credentials: CredentialRepository;
  clock: Clock;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const createAccount = async (input: { email: string }, deps: AdminDeps): Promise<Account> => {
  const email = input.email.trim().toLowerCase();
  if (!emailPattern.test(email) || email.length > 254) {
    throw validationError([{ field: 'email', issue: 'must be an e-mail address' }]);
  }
  const now = deps.clock.now();
  const account: Account = { id: newId('account', now), email, created_at: isoTime(now) };
  await deps.accounts.create(account);
  return account;
};

/** The types a person can mint; OAuth tokens come only from the OAuth flow. */
export const mintableCredentialTypes = ['live', 'test', 'ro', 'pat'] as const satisfies readonly CredentialType[];
export type MintableCredentialType = (typeof mintableCredentialTypes)[number];

export interface CreateCredentialInput {
  accountId: string;
  type: string;
  name: string;
  scopes: string[];
  expiresInDays?: number;
  /** The person making the key (the dashboard); left out when the system or an operator makes it. */
  createdByUserId?: string;
}

/** The one answer that carries the credential's value. */
export interface CreatedCredential extends CredentialView {
  key: string;
}

const checkedScopes = (type: MintableCredentialType, requested: string[]): Scope[] => {
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw validationError([{ field: 'scopes', issue: `unknown scope ${unknown.join(', ')}; allowed: ${allScopes.join(', ')}` }]);
  }
  const scopes = [...new Set(requested as Scope[])];
  if (scopes.length === 0) throw validationError([{ field: 'scopes', issue: 'must name at least one scope' }]);
  if (type === 'ro' && scopes.some((s) => !isReadScope(s))) {
    throw validationError([{ field: 'scopes', issue: 'a read-only key can hold only read:* scopes' }]);
  }
  return scopes;
};

export const createCredential = async (input: CreateCredentialInput, deps: AdminDeps): Promise<CreatedCredential> => {
  const type = mintableCredentialTypes.find((t) => t === input.type);
  if (!type) throw validationError([{ field: 'type', issue: `must be one of ${mintableCredentialTypes.join(', ')}` }]);
  const name = input.name.trim();
  if (name.length < 1) throw validationError([{ field: 'name', issue: 'must not be blank: say what uses the key' }]);
  if (name.length > 100) throw validationError([{ field: 'name', issue: 'must be at most 100 characters' }]);
  const scopes = checkedScopes(type, input.scopes);
  if (
    input.expiresInDays !== undefined &&
    !(Number.isInteger(input.expiresInDays) && input.expiresInDays >= 1 && input.expiresInDays <= 366)
  ) {
    throw validationError([{ field: 'expires_in_days', issue: 'must be a whole number of days from 1 to 366' }]);
  }
  if (!(await deps.accounts.get(input.accountId))) throw notFound('Account');

  const now = deps.clock.now();
  const key = generateCredentialValue(type);
  const credential: Credential = {
    id: newId('credential', now),
    account_id: input.accountId,
    type,
    name,
    scopes,
    hash: hashCredentialValue(key),
    hint: redactCredentialValue(key),
    created_at: isoTime(now),
    expires_at: input.expiresInDays === undefined ? null : isoTime(now + input.expiresInDays * 86_400_000),
    revoked_at: null,
    last_used_at: null,
    created_by_user_id: input.createdByUserId ?? null,
  };
  await deps.credentials.create(credential);
  return { ...viewOfCredential(credential), key };
};

export const listCredentials = async (accountId: string, deps: AdminDeps): Promise<CredentialView[]> =>
  (await deps.credentials.listByAccount(accountId)).map(viewOfCredential);

export const revokeCredential = async (id: string, deps: AdminDeps): Promise<CredentialView> => {
  const revoked = await deps.credentials.revoke(id, isoTime(deps.clock.now()));
  if (!revoked) throw notFound('Credential');
  return viewOfCredential(revoked);
};

/** The first account of a fresh installation, with a live and a test key holding every scope. */
export const bootstrapDefaultAccount = async (
  email: string,
  deps: AdminDeps,
): Promise<{ account: Account; liveKey: CreatedCredential; testKey: CreatedCredential } | undefined> => {
  if ((await deps.accounts.list(1)).length > 0) return undefined;
  const account = await createAccount({ email }, deps);
  const scopes = [...allScopes];
  const liveKey = await createCredential({ accountId: account.id, type: 'live', name: 'default live key', scopes }, deps);
  const testKey = await createCredential({ accountId: account.id, type: 'test', name: 'default test key', scopes }, deps);
  return { account, liveKey, testKey };
};
