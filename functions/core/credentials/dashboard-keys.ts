import { type AuditActor, type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { ApiError, conflict, notFound, validationError } from '../errors';
import { newId } from '../ids';
import type { Role } from '../users/user';
import type { Credential, CredentialRepository, CredentialView, AccountRepository } from './credential';
import { viewOfCredential } from './credential';
import { generateCredentialValue, hashCredentialValue, redactCredentialValue } from './key-format';
import { type CreatedCredential, createCredential, mintableCredentialTypes } from './manage-credentials';
import { isReadScope, isScope } from './scopes';

/**
 * API keys and personal access tokens as people manage them in the dashboard: an admin manages
 * every key of the account; a viewer only the keys they made that can read and nothing more, so
 * that no viewer ever holds, or takes away, the power to write, nor a key someone else relies on.
 * A personal access token acts as the person who made it, so only they roll it (a roll hands over
 * a new value): an admin may revoke it, not take it over.
 */
export interface KeyManagementDeps {
  accounts: AccountRepository;
  credentials: CredentialRepository;
  audit: AuditLog;
  clock: Clock;
}

/** The person acting, for whom the rules and the audit record are made. */
export interface KeyActor {
  accountId: string;
  userId: string;
  role: Role;
  origin?: RequestOrigin;
}

/** Keys should be rotated about every 90 days; older ones are flagged. */
export const keyRotationDays = 90;

/** How long the old value of a rolled key keeps working, as Stripe's roll offers it. */
export const rollOverlaps = [
  { hours: 0, label: 'Now' },
  { hours: 1, label: 'In 1 hour' },
  { hours: 24, label: 'In 24 hours' },
  { hours: 72, label: 'In 3 days' },
  { hours: 168, label: 'In 7 days' },
] as const;

export const isDueForRotation = (credential: Pick<CredentialView, 'created_at'>, nowMs: number): boolean =>
  nowMs - Date.parse(credential.created_at) > keyRotationDays * 86_400_000;

const viewerRefusal = (): ApiError =>
  new ApiError('insufficient_scope', 'A viewer can manage only the keys they made with read:* scopes; ask an admin of the account.', {
    required_role: 'admin',
  });

const tokenRollRefusal = (): ApiError =>
  new ApiError(
    'insufficient_scope',
    'A personal access token acts as the person who made it, and only they can roll it; revoke it instead.',
  );

const readOnlyScopes = (scopes: readonly string[]): boolean => scopes.every((s) => isScope(s) && isReadScope(s));

export type KeyAction = 'revoke' | 'roll';

/** Why this person may not do that to the key, or null when they may (the page shows only what is allowed). */
const refusalOf = (
  actor: Pick<KeyActor, 'userId' | 'role'>,
  key: Pick<CredentialView, 'type' | 'scopes' | 'created_by_user_id'>,
  action: KeyAction,
): ApiError | null => {
  const theirs = key.created_by_user_id === actor.userId;
  if (actor.role !== 'admin' && !(theirs && readOnlyScopes(key.scopes))) return viewerRefusal();
  // A token nobody is recorded for (made before creators were) stays the admins' to roll.
  if (action === 'roll' && key.type === 'pat' && !theirs && key.created_by_user_id !== null) return tokenRollRefusal();
  return null;
};

export const mayManageKey = (
  actor: Pick<KeyActor, 'userId' | 'role'>,
  key: Pick<CredentialView, 'type' | 'scopes' | 'created_by_user_id'>,
  action: KeyAction,
): boolean => refusalOf(actor, key, action) === null;

const audit = async (
  deps: KeyManagementDeps,
  actor: KeyActor,
  action: 'credential.created' | 'credential.revoked' | 'credential.rolled',
  credential: CredentialView,
  details: Record<string, unknown> = {},
): Promise<void> => {
  const now = deps.clock.now();
  const who: AuditActor = { type: 'user', id: actor.userId };
  await deps.audit.record(
    auditRecordOf(
      {
        accountId: actor.accountId,
        action,
        actor: who,
        targetId: credential.id,
        details: { name: credential.name, type: credential.type, hint: credential.hint, scopes: credential.scopes, ...details },
        origin: actor.origin,
      },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
};

/** The keys a person manages here (never OAuth access tokens, which belong to their grants), newest first. */
export const listKeys = async (accountId: string, deps: Pick<KeyManagementDeps, 'credentials'>): Promise<CredentialView[]> =>
  (await deps.credentials.listByAccount(accountId))
    .filter((c) => (mintableCredentialTypes as readonly string[]).includes(c.type))
    .map(viewOfCredential)
    .sort((a, b) => (a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at)));

/** The working keys a person made: API keys stay the account's when they leave, personal access tokens stop with them. */
export interface KeysCreated {
  apiKeys: number;
  personalAccessTokens: number;
}

/** Per person, the keys of the account they made that still work (neither revoked nor expired). */
export const keysCreatedByPerson = (credentials: readonly CredentialView[], nowMs: number): Map<string, KeysCreated> => {
  const counts = new Map<string, KeysCreated>();
  for (const key of credentials) {
    if (!key.created_by_user_id || !(mintableCredentialTypes as readonly string[]).includes(key.type)) continue;
    if (key.revoked_at !== null || (key.expires_at !== null && Date.parse(key.expires_at) <= nowMs)) continue;
    const count = counts.get(key.created_by_user_id) ?? { apiKeys: 0, personalAccessTokens: 0 };
    if (key.type === 'pat') count.personalAccessTokens += 1;
    else count.apiKeys += 1;
    counts.set(key.created_by_user_id, count);
  }
  return counts;
};

export const noKeysCreated: KeysCreated = { apiKeys: 0, personalAccessTokens: 0 };

export const createKey = async (
  actor: KeyActor,
  input: { type: string; name: string; scopes: string[]; expiresInDays?: number },
  deps: KeyManagementDeps,
): Promise<CreatedCredential> => {
  // The role decides before anything is checked or stored: the server refuses what the page hides.
  if (actor.role !== 'admin' && !readOnlyScopes(input.scopes)) throw viewerRefusal();
  const created = await createCredential({ accountId: actor.accountId, ...input, createdByUserId: actor.userId }, deps);
  await audit(deps, actor, 'credential.created', created);
  return created;
};

/**
 * The key, when this person may revoke or roll it: 404 for another account's, 403 for what
 * `mayManageKey` refuses (a viewer on a key they did not make or that can write; anyone but its
 * maker rolling a personal access token).
 */
export const keyToManage = async (
  actor: KeyActor,
  id: string,
  action: KeyAction,
  deps: Pick<KeyManagementDeps, 'credentials'>,
): Promise<Credential> => {
  const found = await deps.credentials.findById(id);
  if (!found || found.account_id !== actor.accountId || !(mintableCredentialTypes as readonly string[]).includes(found.type)) {
    throw notFound('Key');
  }
  const refusal = refusalOf(actor, found, action);
  if (refusal) throw refusal;
  return found;
};

/** Revoked at once: the next request with the key is refused (401). */
export const revokeKey = async (actor: KeyActor, id: string, deps: KeyManagementDeps): Promise<CredentialView> => {
  const found = await keyToManage(actor, id, 'revoke', deps);
  const revoked = await deps.credentials.revoke(found.id, isoTime(deps.clock.now()));
  if (!revoked) throw notFound('Key');
  const view = viewOfCredential(revoked);
  if (found.revoked_at === null) await audit(deps, actor, 'credential.revoked', view);
  return view;
};

/**
 * Rolls a key as Stripe does: a new value with the same name, type, scopes and lifetime; the old
 * value keeps working for `overlapHours` (0: it stops now), so deployments can move over.
 */
export const rollKey = async (
  actor: KeyActor,
  id: string,
  overlapHours: number,
  deps: KeyManagementDeps,
): Promise<CreatedCredential & { replaced: CredentialView }> => {
  if (!rollOverlaps.some((o) => o.hours === overlapHours)) {
    throw validationError([{ field: 'overlap_hours', issue: `must be one of ${rollOverlaps.map((o) => o.hours).join(', ')}` }]);
  }
  const old = await keyToManage(actor, id, 'roll', deps);
  const now = deps.clock.now();
  if (old.revoked_at) throw conflict('This key is revoked; create a new one instead.');
  if (old.expires_at && Date.parse(old.expires_at) <= now) throw conflict('This key has expired; create a new one instead.');

  const key = generateCredentialValue(old.type);
  const lifetime = old.expires_at === null ? null : Date.parse(old.expires_at) - Date.parse(old.created_at);
  const replacement: Credential = {
    id: newId('credential', now),
    account_id: old.account_id,
    type: old.type,
    name: old.name,
    scopes: [...old.scopes],
    hash: hashCredentialValue(key),
    hint: redactCredentialValue(key),
    created_at: isoTime(now),
    expires_at: lifetime === null ? null : isoTime(now + lifetime),
    revoked_at: null,
    last_used_at: null,
    // The same key with a new value: it stays the person's who made it, whoever rolls it.
    created_by_user_id: old.created_by_user_id ?? null,
  };
  // An old value that would expire sooner anyway keeps its own end.
  const overlapEnd = now + overlapHours * 3_600_000;
  const oldExpiresAt = isoTime(old.expires_at === null ? overlapEnd : Math.min(overlapEnd, Date.parse(old.expires_at)));
  const replaced = await deps.credentials.roll(replacement, old.id, oldExpiresAt);
  if (!replaced) throw conflict('This key changed meanwhile (revoked or rolled); reload the page.');
  const view = viewOfCredential(replacement);
  await audit(deps, actor, 'credential.rolled', view, { replaced_id: old.id, old_expires_at: replaced.expires_at });
  return { ...view, key, replaced: viewOfCredential(replaced) };
};
