import { type AuditActor, type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import type { AccountRepository } from '../credentials/credential';
import { hashCredentialValue } from '../credentials/key-format';
import { conflict, notFound, validationError, type FieldIssue } from '../errors';
import { newId } from '../ids';
import { type OAuthClient, type OAuthClientRepository, type OAuthClientView, redirectUriIssue, viewOfClient } from './client';
import { generateOAuthValue, oauthPrefixes } from './oauth-formats';

export interface ClientAdminDeps {
  clients: OAuthClientRepository;
  accounts: AccountRepository;
  audit: AuditLog;
  clock: Clock;
}

/** The one answer that carries the secret. */
export interface RegisteredClient extends OAuthClientView {
  client_secret?: string;
}

const hintOf = (secret: string): string => `${oauthPrefixes.clientSecret}…${secret.slice(-4)}`;

const audit = (
  deps: ClientAdminDeps,
  input: {
    accountId: string;
    action: 'oauth.client_created' | 'oauth.client_updated' | 'oauth.client_deleted' | 'oauth.client_secret_rotated';
    clientId: string;
    details?: Record<string, unknown>;
    actor?: AuditActor;
    origin?: RequestOrigin;
  },
) => {
  const now = deps.clock.now();
  return deps.audit.record(
    auditRecordOf(
      {
        accountId: input.accountId,
        action: input.action,
        actor: input.actor ?? { type: 'cli', id: null },
        targetId: input.clientId,
        details: input.details,
        origin: input.origin,
      },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
};

/**
 * The rules of an application's settings, the same at registration and at every edit: a name of 1
 * to 100 characters and 1 to 10 exact redirect URIs (duplicates dropped). Throws every issue at once.
 */
const checkedSettings = (input: { name: string; redirectUris: string[] }): { name: string; redirectUris: string[] } => {
  const name = input.name.trim();
  const issues: FieldIssue[] = [];
  if (name.length < 1 || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) {
    issues.push({ field: 'name', issue: 'must be 1 to 100 characters, without control characters' });
  }
  const redirectUris = [...new Set(input.redirectUris)];
  if (redirectUris.length === 0 || redirectUris.length > 10)
    issues.push({ field: 'redirect_uris', issue: 'must name 1 to 10 redirect URIs' });
  for (const uri of redirectUris) {
    const issue = redirectUriIssue(uri);
    if (issue) issues.push({ field: 'redirect_uris', issue: `${uri} ${issue}` });
  }
  if (issues.length > 0) throw validationError(issues);
  return { name, redirectUris };
};

/**
 * Registers an application: a name, one or more exact redirect URIs, confidential (a secret, shown
 * this once) or public (no secret; PKCE required at every authorization).
 */
export const registerClient = async (
  input: { accountId: string; name: string; redirectUris: string[]; public?: boolean; actor?: AuditActor; origin?: RequestOrigin },
  deps: ClientAdminDeps,
): Promise<RegisteredClient> => {
  const { name, redirectUris } = checkedSettings(input);
  if (!(await deps.accounts.get(input.accountId))) throw notFound('Account');

  const now = isoTime(deps.clock.now());
  const secret = input.public ? undefined : generateOAuthValue('clientSecret');
  const client: OAuthClient = {
    id: generateOAuthValue('clientId'),
    account_id: input.accountId,
    name,
    redirect_uris: redirectUris,
    type: input.public ? 'public' : 'confidential',
    secret_hash: secret ? hashCredentialValue(secret) : null,
    secret_hint: secret ? hintOf(secret) : null,
    secret_created_at: secret ? now : null,
    created_at: now,
    updated_at: now,
  };
  await deps.clients.create(client);
  await audit(deps, {
    accountId: input.accountId,
    action: 'oauth.client_created',
    clientId: client.id,
    details: { name, type: client.type },
    actor: input.actor,
    origin: input.origin,
  });
  return { ...viewOfClient(client), ...(secret ? { client_secret: secret } : {}) };
};

export const listClients = async (accountId: string, deps: ClientAdminDeps): Promise<OAuthClientView[]> =>
  (await deps.clients.ofAccount(accountId)).map(viewOfClient);

const ownedClient = async (
  accountId: string,
  id: string,
  deps: Pick<ClientAdminDeps, 'clients'>,
  options?: { consistent?: boolean },
): Promise<OAuthClient> => {
  const client = await deps.clients.get(id, options);
  if (!client || client.account_id !== accountId) throw notFound('Application');
  return client;
};

/** One application of the account (another account's is not found). */
export const getClient = async (accountId: string, id: string, deps: Pick<ClientAdminDeps, 'clients'>): Promise<OAuthClientView> =>
  viewOfClient(await ownedClient(accountId, id, deps));

/**
 * Edits an application's name and redirect URIs, by the rules of registration. Its id, type and
 * secret stay (the secret changes only by rotation). A redirect URI taken off is refused from the
 * next authorization request on; codes already issued for it still exchange until they expire (10
 * minutes), as they are bound to it. Concurrent edits: the last one wins, as in GitHub's settings.
 * An edit that changes nothing writes and records nothing.
 */
export const updateClient = async (
  input: { accountId: string; clientId: string; name: string; redirectUris: string[]; actor?: AuditActor; origin?: RequestOrigin },
  deps: ClientAdminDeps,
): Promise<OAuthClientView> => {
  const { name, redirectUris } = checkedSettings(input);
  const client = await ownedClient(input.accountId, input.clientId, deps);
  const added = redirectUris.filter((uri) => !client.redirect_uris.includes(uri));
  const removed = client.redirect_uris.filter((uri) => !redirectUris.includes(uri));
  if (name === client.name && redirectUris.join('\n') === client.redirect_uris.join('\n')) return viewOfClient(client);

  const updated = await deps.clients.update(input.accountId, client.id, {
    name,
    redirect_uris: redirectUris,
    updated_at: isoTime(deps.clock.now()),
  });
  if (!updated) throw notFound('Application');
  await audit(deps, {
    accountId: input.accountId,
    action: 'oauth.client_updated',
    clientId: client.id,
    details: {
      name,
      ...(name !== client.name ? { previous_name: client.name } : {}),
      ...(added.length > 0 ? { redirect_uris_added: added } : {}),
      ...(removed.length > 0 ? { redirect_uris_removed: removed } : {}),
    },
    actor: input.actor,
    origin: input.origin,
  });
  return viewOfClient(updated);
};

/** A new secret replaces the old one at once; the answer carries it, this once. */
export const rotateClientSecret = async (
  input: { accountId: string; clientId: string; actor?: AuditActor; origin?: RequestOrigin },
  deps: ClientAdminDeps,
): Promise<RegisteredClient> => {
  // Read consistently: the replacement is conditional on the secret read here.
  const client = await ownedClient(input.accountId, input.clientId, deps, { consistent: true });
  if (client.type === 'public') throw validationError([{ field: 'client_id', issue: 'is a public application: it has no secret' }]);
  const secret = generateOAuthValue('clientSecret');
  const now = isoTime(deps.clock.now());
  const replacement = { hash: hashCredentialValue(secret), hint: hintOf(secret), created_at: now };
  const replaced = await deps.clients.replaceSecret(client.id, client.secret_hash ?? '', replacement);
  if (replaced === 'not_found') throw notFound('Application');
  // Another rotation won: this secret was never stored, so it must not be handed out.
  if (replaced === 'changed') throw conflict('The secret was rotated by another request meanwhile; rotate again if needed.');
  await audit(deps, {
    accountId: input.accountId,
    action: 'oauth.client_secret_rotated',
    clientId: client.id,
    actor: input.actor,
    origin: input.origin,
  });
  return {
    ...viewOfClient({ ...client, secret_hint: replacement.hint, secret_created_at: now, updated_at: now }),
    client_secret: secret,
  };
};

/**
 * Deletes an application. Its tokens are refused from the next request on (the resolver checks that
 * the application still exists) and its refresh tokens can no longer be used.
 */
export const deleteClient = async (
  input: { accountId: string; clientId: string; actor?: AuditActor; origin?: RequestOrigin },
  deps: ClientAdminDeps,
): Promise<void> => {
  const client = await ownedClient(input.accountId, input.clientId, deps);
  if (!(await deps.clients.delete(input.accountId, client.id))) throw notFound('Application');
  await audit(deps, {
    accountId: input.accountId,
    action: 'oauth.client_deleted',
    clientId: client.id,
    details: { name: client.name },
    actor: input.actor,
    origin: input.origin,
  });
};
