import { createHash } from 'node:crypto';
import { generateCredentialValue, hashCredentialValue } from '../../functions/core/credentials/key-format';
import {
  bootstrapDefaultAccount,
  createAccount,
  createCredential,
  listCredentials,
  revokeCredential,
} from '../../functions/core/credentials/manage-credentials';
import { lastUsedGranularityMs, resolveCredential } from '../../functions/core/credentials/resolve-credential';
import { allScopes, readScopes } from '../../functions/core/credentials/scopes';
import { inMemoryAccountRepository } from './fakes/account-repository';
import { controlledClock } from './fakes/clock';
import { inMemoryCredentialRepository } from './fakes/credential-repository';
import { apiErrorOf } from './fakes/api-error';
import { statusOf } from '../../functions/http/error-status';

const setUp = () => {
  const accounts = inMemoryAccountRepository();
  const credentials = inMemoryCredentialRepository();
  const clock = controlledClock();
  return { accounts, credentials, clock, deps: { accounts, credentials, clock } };
};

const withAccountAndKey = async (type: 'live' | 'test' | 'ro' | 'pat' = 'live', scopes: string[] = [...allScopes]) => {
  const env = setUp();
  const account = await createAccount({ email: 'owner@example.test' }, env.deps);
  const key = await createCredential({ accountId: account.id, type, name: 'ci', scopes }, env.deps);
  return { ...env, account, key };
};

describe('resolveCredential', () => {
  it('accepts a key as a Bearer token and as X-API-Key, naming its account and credential', async () => {
    const { credentials, clock, account, key } = await withAccountAndKey();
    const viaBearer = await resolveCredential({ authorization: `Bearer ${key.key}` }, { credentials, clock });
    const viaHeader = await resolveCredential({ apiKey: key.key }, { credentials, clock });
    for (const principal of [viaBearer, viaHeader]) {
      expect(principal).toEqual({
        accountId: account.id,
        mode: 'live',
        credentialId: key.id,
        credentialType: 'live',
        credentialHint: key.hint,
        scopes: [...allScopes],
      });
    }
  });

  it('reads the Bearer scheme case-insensitively', async () => {
    const { credentials, clock, key } = await withAccountAndKey();
    await expect(resolveCredential({ authorization: `bearer ${key.key}` }, { credentials, clock })).resolves.toMatchObject({
      credentialId: key.id,
    });
  });

  it('accepts both headers when they carry the same key', async () => {
    const { credentials, clock, key } = await withAccountAndKey();
    const principal = await resolveCredential({ authorization: `Bearer ${key.key}`, apiKey: key.key }, { credentials, clock });
    expect(principal.credentialId).toBe(key.id);
  });

  it('refuses two different keys with 400 invalid_request', async () => {
    const { credentials, clock, key, deps, account } = await withAccountAndKey();
    const other = await createCredential({ accountId: account.id, type: 'live', name: 'other', scopes: ['read:projects'] }, deps);
    const error = await apiErrorOf(resolveCredential({ authorization: `Bearer ${key.key}`, apiKey: other.key }, { credentials, clock }));
    expect(error.code).toBe('invalid_request');
    expect(statusOf(error)).toBe(400);
  });

  it('refuses a request without credential with 401 and WWW-Authenticate: Bearer', async () => {
    const { credentials, clock } = setUp();
    for (const presented of [{}, { apiKey: '' }, { apiKey: '   ' }]) {
      const error = await apiErrorOf(resolveCredential(presented, { credentials, clock }));
      expect(error.code).toBe('unauthorized');
      expect(statusOf(error)).toBe(401);
      expect(error.headers['WWW-Authenticate']).toMatch(/^Bearer\b/);
    }
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token svc_live_x', 'Bearer a b'])(
    'refuses the malformed Authorization header %p',
    async (authorization) => {
      const { credentials, clock } = setUp();
      const error = await apiErrorOf(resolveCredential({ authorization }, { credentials, clock }));
      expect(error.code).toBe('unauthorized');
      expect(error.headers['WWW-Authenticate']).toMatch(/^Bearer\b/);
      expect(credentials.calls.findByHash).toBe(0);
    },
  );

  it('refuses a key with a wrong checksum without any repository lookup', async () => {
    const { credentials, clock, key } = await withAccountAndKey();
    const position = key.key.length - 10;
    const mistyped = key.key.slice(0, position) + (key.key[position] === 'a' ? 'b' : 'a') + key.key.slice(position + 1);
    const error = await apiErrorOf(resolveCredential({ apiKey: mistyped }, { credentials, clock }));
    expect(error.code).toBe('unauthorized');
    expect(credentials.calls.findByHash).toBe(0);
  });

  it('refuses a well-formed key that was never issued', async () => {
    const { credentials, clock } = await withAccountAndKey();
    const error = await apiErrorOf(resolveCredential({ apiKey: generateCredentialValue('live') }, { credentials, clock }));
    expect(error.code).toBe('unauthorized');
    expect(error.headers['WWW-Authenticate']).toMatch(/^Bearer\b/);
    expect(credentials.calls.findByHash).toBe(1);
  });

  it('refuses a revoked key from the next request on', async () => {
    const { credentials, clock, key, deps } = await withAccountAndKey();
    await resolveCredential({ apiKey: key.key }, { credentials, clock });
    await revokeCredential(key.id, deps);
    const error = await apiErrorOf(resolveCredential({ apiKey: key.key }, { credentials, clock }));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/revoked/);
  });

  it('refuses an expired key, and accepts it until the moment it expires', async () => {
    const env = setUp();
    const account = await createAccount({ email: 'owner@example.test' }, env.deps);
    const key = await createCredential(
      { accountId: account.id, type: 'live', name: 'short', scopes: ['read:projects'], expiresInDays: 1 },
      env.deps,
    );
    env.clock.advance(86_400_000 - 1);
    await expect(resolveCredential({ apiKey: key.key }, env.deps)).resolves.toMatchObject({ credentialId: key.id });
    env.clock.advance(1);
    const error = await apiErrorOf(resolveCredential({ apiKey: key.key }, env.deps));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/expired/);
  });

  it('gives a svc_test_ key test mode and every other key live mode', async () => {
    const env = setUp();
    const account = await createAccount({ email: 'owner@example.test' }, env.deps);
    const modes: Record<string, string> = {};
    for (const type of ['live', 'test', 'ro', 'pat'] as const) {
      const key = await createCredential({ accountId: account.id, type, name: type, scopes: ['read:projects'] }, env.deps);
      modes[type] = (await resolveCredential({ apiKey: key.key }, env.deps)).mode;
    }
    expect(modes).toEqual({ live: 'live', test: 'test', ro: 'live', pat: 'live' });
  });

  it('keeps only the read:* scopes of a read-only key, whatever was stored for it', async () => {
    const { credentials, clock } = setUp();
    const value = generateCredentialValue('ro');
    await credentials.create({
      id: 'key_ro',
      account_id: 'acct_1',
      type: 'ro',
      name: 'tampered',
      scopes: ['read:projects', 'write:projects', 'read:deployments', 'write:deployments'],
      hash: hashCredentialValue(value),
      hint: 'svc_ro_…',
      created_at: new Date(clock.now()).toISOString(),
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      created_by_user_id: null,
    });
    const principal = await resolveCredential({ apiKey: value }, { credentials, clock });
    expect(principal.scopes).toEqual(['read:projects', 'read:deployments']);
  });

  it('records the first use, not again within 60 s, and again after', async () => {
    const { credentials, clock, key } = await withAccountAndKey();
    const lastUsed = async () => (await credentials.findById(key.id))?.last_used_at;
    const firstUse = new Date(clock.now()).toISOString();

    await resolveCredential({ apiKey: key.key }, { credentials, clock });
    expect(await lastUsed()).toBe(firstUse);
    expect(credentials.calls.touchLastUsed).toBe(1);

    clock.advance(lastUsedGranularityMs - 1);
    await resolveCredential({ apiKey: key.key }, { credentials, clock });
    expect(credentials.calls.touchLastUsed).toBe(1);
    expect(await lastUsed()).toBe(firstUse);

    clock.advance(2);
    await resolveCredential({ apiKey: key.key }, { credentials, clock });
    expect(credentials.calls.touchLastUsed).toBe(2);
    expect(await lastUsed()).toBe(new Date(clock.now()).toISOString());
  });
});

describe('createCredential', () => {
  it('returns the key once and stores only its SHA-256 hash', async () => {
    const { credentials, deps, account } = await withAccountAndKey();
    const created = await createCredential({ accountId: account.id, type: 'pat', name: '  laptop  ', scopes: ['read:projects'] }, deps);

    expect(created.key).toMatch(/^svc_pat_[0-9A-Za-z]{36}$/);
    expect(created).toMatchObject({
      account_id: account.id,
      type: 'pat',
      name: 'laptop',
      scopes: ['read:projects'],
      revoked_at: null,
      last_used_at: null,
    });
    expect(created).not.toHaveProperty('hash');
    expect(created.hint).toBe(`svc_pat_…${created.key.slice(-4)}`);

    const stored = credentials.stored().find((c) => c.id === created.id);
    expect(stored).toBeDefined();
    expect(stored).not.toHaveProperty('key');
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect(stored?.hash).toBe(createHash('sha256').update(created.key).digest('hex'));

    const listed = await listCredentials(account.id, deps);
    for (const view of listed) {
      expect(view).not.toHaveProperty('hash');
      expect(view).not.toHaveProperty('key');
    }
  });

  it('gives every key its own value and id', async () => {
    const { deps, account } = await withAccountAndKey();
    const a = await createCredential({ accountId: account.id, type: 'live', name: 'a', scopes: ['read:projects'] }, deps);
    const b = await createCredential({ accountId: account.id, type: 'live', name: 'b', scopes: ['read:projects'] }, deps);
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^key_/);
  });

  it('sets expires_at the requested number of days ahead', async () => {
    const { deps, account, clock } = await withAccountAndKey();
    const created = await createCredential(
      { accountId: account.id, type: 'live', name: 'a', scopes: ['read:projects'], expiresInDays: 30 },
      deps,
    );
    expect(created.expires_at).toBe(new Date(clock.now() + 30 * 86_400_000).toISOString());
  });

  it('refuses a read-only key with a write scope', async () => {
    const { deps, account } = await withAccountAndKey();
    const error = await apiErrorOf(
      createCredential({ accountId: account.id, type: 'ro', name: 'ro', scopes: ['read:projects', 'write:projects'] }, deps),
    );
    expect(error.code).toBe('validation_error');
    expect(statusOf(error)).toBe(422);
    expect(error.details).toMatchObject({ field: 'scopes' });
  });

  it('accepts a read-only key with every read scope', async () => {
    const { deps, account } = await withAccountAndKey();
    const created = await createCredential({ accountId: account.id, type: 'ro', name: 'ro', scopes: [...readScopes] }, deps);
    expect(created.scopes).toEqual(readScopes);
  });

  it('refuses an unknown scope and names the allowed ones', async () => {
    const { deps, account } = await withAccountAndKey();
    const error = await apiErrorOf(
      createCredential({ accountId: account.id, type: 'live', name: 'x', scopes: ['read:projects', 'admin:everything'] }, deps),
    );
    expect(error.code).toBe('validation_error');
    expect(error.details).toMatchObject({ field: 'scopes' });
    const issue = (error.details as { issue: string }).issue;
    expect(issue).toContain('admin:everything');
    for (const scope of allScopes) expect(issue).toContain(scope);
  });

  it.each([
    ['type', { type: 'oauth' }],
    ['type', { type: 'admin' }],
    ['name', { name: '   ' }],
    ['name', { name: 'x'.repeat(101) }],
    ['scopes', { scopes: [] }],
    ['expires_in_days', { expiresInDays: 0 }],
    ['expires_in_days', { expiresInDays: 1.5 }],
    ['expires_in_days', { expiresInDays: 367 }],
  ])('refuses an invalid %s (%j)', async (field, change) => {
    const { deps, account } = await withAccountAndKey();
    const error = await apiErrorOf(
      createCredential({ accountId: account.id, type: 'live', name: 'x', scopes: ['read:projects'], ...change }, deps),
    );
    expect(error.code).toBe('validation_error');
    expect(error.details).toMatchObject({ field });
  });

  it('refuses an unknown account with not_found and stores nothing', async () => {
    const { deps, credentials } = setUp();
    const error = await apiErrorOf(
      createCredential({ accountId: 'acct_missing', type: 'live', name: 'x', scopes: ['read:projects'] }, deps),
    );
    expect(error.code).toBe('not_found');
    expect(statusOf(error)).toBe(404);
    expect(credentials.stored()).toHaveLength(0);
  });
});

describe('revokeCredential', () => {
  it('sets revoked_at to now and keeps the first time on a second revocation', async () => {
    const { deps, key, clock } = await withAccountAndKey();
    const revoked = await revokeCredential(key.id, deps);
    expect(revoked.revoked_at).toBe(new Date(clock.now()).toISOString());
    expect(revoked).not.toHaveProperty('hash');
    clock.advance(5_000);
    expect((await revokeCredential(key.id, deps)).revoked_at).toBe(revoked.revoked_at);
  });

  it('answers not_found for an unknown credential', async () => {
    const { deps } = setUp();
    expect((await apiErrorOf(revokeCredential('key_missing', deps))).code).toBe('not_found');
  });
});

describe('accounts', () => {
  it('creates an account with an acct_ id and the e-mail in lower case', async () => {
    const { deps, clock } = setUp();
    const account = await createAccount({ email: '  Owner@Example.TEST ' }, deps);
    expect(account).toEqual({
      id: expect.stringMatching(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/),
      email: 'owner@example.test',
      created_at: new Date(clock.now()).toISOString(),
    });
  });

  it.each(['', 'owner', 'owner@', '@example.test', 'owner@example', 'own er@example.test', `${'a'.repeat(250)}@example.test`])(
    'refuses the e-mail %p',
    async (email) => {
      const { deps, accounts } = setUp();
      const error = await apiErrorOf(createAccount({ email }, deps));
      expect(error.code).toBe('validation_error');
      expect(error.details).toEqual({ field: 'email', issue: expect.any(String) });
      expect(accounts.all()).toHaveLength(0);
    },
  );

  it('bootstraps the first account with a live and a test key holding every scope, once', async () => {
    const { deps, accounts } = setUp();
    const first = await bootstrapDefaultAccount('admin@example.test', deps);
    expect(first).toBeDefined();
    expect(first?.liveKey.key).toMatch(/^svc_live_/);
    expect(first?.testKey.key).toMatch(/^svc_test_/);
    expect(first?.liveKey.scopes).toEqual([...allScopes]);
    expect(first?.testKey.scopes).toEqual([...allScopes]);
    const test = await resolveCredential({ apiKey: first?.testKey.key }, deps);
    expect(test).toMatchObject({ accountId: first?.account.id, mode: 'test' });

    await expect(bootstrapDefaultAccount('someone-else@example.test', deps)).resolves.toBeUndefined();
    expect(accounts.all()).toHaveLength(1);
  });
});
