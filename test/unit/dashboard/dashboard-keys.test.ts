import { createAccount, createCredential } from '../../../functions/core/credentials/manage-credentials';
import {
  createKey,
  isDueForRotation,
  type KeyActor,
  listKeys,
  mayManageKey,
  revokeKey,
  rollKey,
} from '../../../functions/core/credentials/dashboard-keys';
import { resolveCredential } from '../../../functions/core/credentials/resolve-credential';
import { inMemoryAccountRepository } from '../fakes/account-repository';
import { controlledClock } from '../fakes/clock';
import { inMemoryCredentialRepository } from '../fakes/credential-repository';
import { inMemoryAuditLog } from '../fakes/people';

const setUp = async () => {
  const deps = {
    accounts: inMemoryAccountRepository(),
    credentials: inMemoryCredentialRepository(),
    audit: inMemoryAuditLog(),
    clock: controlledClock(),
  };
  const account = await createAccount({ email: 'owner@example.com' }, deps);
  const admin: KeyActor = { accountId: account.id, userId: 'usr_admin', role: 'admin' };
  const viewer: KeyActor = { accountId: account.id, userId: 'usr_viewer', role: 'viewer' };
  const works = async (key: string) =>
    resolveCredential({ authorization: `Bearer ${key}` }, deps).then(
      () => true,
      () => false,
    );
  return { deps, account, admin, viewer, works };
};

describe('keys in the dashboard', () => {
  it('an admin creates any key; the value works and is audited without the value', async () => {
    const { deps, admin, works } = await setUp();
    const created = await createKey(admin, { type: 'live', name: 'CI', scopes: ['read:projects', 'write:projects'] }, deps);
    expect(await works(created.key)).toBe(true);
    expect(deps.audit.records).toHaveLength(1);
    expect(deps.audit.records[0]).toMatchObject({
      action: 'credential.created',
      actor: { type: 'user', id: 'usr_admin' },
      target_id: created.id,
    });
    expect(JSON.stringify(deps.audit.records)).not.toContain(created.key);
  });

  it('a viewer may create keys with read:* scopes only; the rest is refused before anything is stored', async () => {
    const { deps, viewer } = await setUp();
    await expect(createKey(viewer, { type: 'live', name: 'w', scopes: ['read:projects', 'write:projects'] }, deps)).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
    expect(deps.credentials.stored()).toHaveLength(0);
    const reader = await createKey(viewer, { type: 'pat', name: 'r', scopes: ['read:projects'] }, deps);
    expect(reader.scopes).toEqual(['read:projects']);
  });

  it('a viewer cannot revoke or roll a key that can write; nobody touches a key of another account', async () => {
    const { deps, admin, viewer } = await setUp();
    const writer = await createKey(admin, { type: 'live', name: 'w', scopes: ['write:projects'] }, deps);
    await expect(revokeKey(viewer, writer.id, deps)).rejects.toMatchObject({ code: 'insufficient_scope' });
    await expect(rollKey(viewer, writer.id, 24, deps)).rejects.toMatchObject({ code: 'insufficient_scope' });
    const other = await createAccount({ email: 'other@example.com' }, deps);
    await expect(revokeKey({ ...admin, accountId: other.id }, writer.id, deps)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a viewer manages only the read-only keys they made: not an admin’s, not another viewer’s', async () => {
    const { deps, admin, viewer, works } = await setUp();
    const adminsReader = await createKey(admin, { type: 'ro', name: 'dashboards', scopes: ['read:projects'] }, deps);
    const othersToken = await createKey(
      { ...viewer, userId: 'usr_other' },
      { type: 'pat', name: 'laptop', scopes: ['read:projects'] },
      deps,
    );
    for (const key of [adminsReader, othersToken]) {
      expect(mayManageKey(viewer, key, 'revoke')).toBe(false);
      await expect(rollKey(viewer, key.id, 0, deps)).rejects.toMatchObject({ code: 'insufficient_scope' });
      await expect(revokeKey(viewer, key.id, deps)).rejects.toMatchObject({ code: 'insufficient_scope' });
    }
    expect((await listKeys(viewer.accountId, deps)).every((key) => key.revoked_at === null)).toBe(true);
    expect(await works(adminsReader.key)).toBe(true);
    const own = await createKey(viewer, { type: 'pat', name: 'mine', scopes: ['read:projects'] }, deps);
    expect(mayManageKey(viewer, own, 'roll')).toBe(true);
    const rolled = await rollKey(viewer, own.id, 0, deps);
    expect(rolled.created_by_user_id).toBe('usr_viewer');
    await revokeKey(viewer, rolled.id, deps);
    expect(await works(rolled.key)).toBe(false);
  });

  it('only the person who made a personal access token rolls it; an admin revokes it, and rolls the account’s keys and tokens nobody is recorded for', async () => {
    const { deps, account, admin } = await setUp();
    const member: KeyActor = { accountId: account.id, userId: 'usr_member', role: 'admin' };
    const token = await createKey(member, { type: 'pat', name: 'laptop', scopes: ['read:projects', 'write:projects'] }, deps);
    expect(mayManageKey(admin, token, 'roll')).toBe(false);
    expect(mayManageKey(admin, token, 'revoke')).toBe(true);
    await expect(rollKey(admin, token.id, 0, deps)).rejects.toMatchObject({ code: 'insufficient_scope' });
    expect(await listKeys(admin.accountId, deps)).toHaveLength(1);
    expect((await rollKey(member, token.id, 24, deps)).created_by_user_id).toBe('usr_member');

    // An API key stays the account's: any admin rolls it, and it stays its maker's.
    const apiKey = await createKey(member, { type: 'live', name: 'CI', scopes: ['write:projects'] }, deps);
    expect((await rollKey(admin, apiKey.id, 0, deps)).created_by_user_id).toBe('usr_member');
    // A token made before creators were recorded has nobody to roll it but an admin.
    const unowned = await createCredential({ accountId: account.id, type: 'pat', name: 'old', scopes: ['read:projects'] }, deps);
    expect((await rollKey(admin, unowned.id, 0, deps)).created_by_user_id).toBeNull();
    await revokeKey(admin, token.id, deps);
  });

  it('revoking ends the key at once; revoking again changes nothing and records nothing more', async () => {
    const { deps, admin, works } = await setUp();
    const created = await createKey(admin, { type: 'live', name: 'CI', scopes: ['read:projects'] }, deps);
    const revoked = await revokeKey(admin, created.id, deps);
    expect(revoked.revoked_at).not.toBeNull();
    expect(await works(created.key)).toBe(false);
    await revokeKey(admin, created.id, deps);
    expect(deps.audit.records.map((r) => r.action)).toEqual(['credential.created', 'credential.revoked']);
  });

  it('rolling keeps name, type, scopes and lifetime; the old value works until the overlap ends', async () => {
    const { deps, admin, works } = await setUp();
    const created = await createKey(admin, { type: 'test', name: 'Nightly', scopes: ['read:tests'], expiresInDays: 30 }, deps);
    deps.clock.advance(86_400_000);
    const rolled = await rollKey(admin, created.id, 24, deps);
    expect(rolled).toMatchObject({ type: 'test', name: 'Nightly', scopes: ['read:tests'] });
    expect(Date.parse(rolled.expires_at!) - Date.parse(rolled.created_at)).toBe(30 * 86_400_000);
    expect(rolled.replaced.expires_at).toBe(new Date(deps.clock.now() + 24 * 3_600_000).toISOString());
    expect(await works(rolled.key)).toBe(true);
    expect(await works(created.key)).toBe(true);
    deps.clock.advance(24 * 3_600_000);
    expect(await works(created.key)).toBe(false);
    expect(await works(rolled.key)).toBe(true);
    expect((await listKeys(admin.accountId, deps)).map((k) => k.id)).toEqual([rolled.id, created.id]);
  });

  it('an overlap never lengthens a key that expires sooner; a revoked key and an unknown overlap are refused', async () => {
    const { deps, admin } = await setUp();
    const soon = await createKey(admin, { type: 'live', name: 's', scopes: ['read:projects'], expiresInDays: 1 }, deps);
    const rolled = await rollKey(admin, soon.id, 168, deps);
    expect(rolled.replaced.expires_at).toBe(soon.expires_at);
    await expect(rollKey(admin, rolled.id, 5, deps)).rejects.toMatchObject({ code: 'validation_error' });
    await revokeKey(admin, rolled.id, deps);
    await expect(rollKey(admin, rolled.id, 0, deps)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('flags keys older than 90 days', async () => {
    const now = Date.parse('2026-11-21T10:00:00.000Z');
    expect(isDueForRotation({ created_at: new Date(now - 91 * 86_400_000).toISOString() }, now)).toBe(true);
    expect(isDueForRotation({ created_at: new Date(now - 89 * 86_400_000).toISOString() }, now)).toBe(false);
  });
});
