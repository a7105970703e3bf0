import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createKey, keysCreatedByPerson, revokeKey, rollKey } from '../../../functions/core/credentials/dashboard-keys';
import { createAccount, createCredential } from '../../../functions/core/credentials/manage-credentials';
import { resolveCredential } from '../../../functions/core/credentials/resolve-credential';
import { generateCredentialValue, hashCredentialValue, redactCredentialValue } from '../../../functions/core/credentials/key-format';
import type { RateDecision } from '../../../functions/core/rate-limiter';
import { createUser, removeMember } from '../../../functions/core/users/manage-users';
import { createApiHandler } from '../../../functions/http/pipeline';
import type { HttpResponse } from '../../../functions/http/response';
import { logger } from '../../../functions/observability/logger';
import { listProjectsRoute } from '../../../functions/routes/projects';
import { apiErrorOf } from '../fakes/api-error';
import { apiEvent, lambdaContext } from '../fakes/api-gateway-event';
import { inMemoryPeople } from '../fakes/people';

logger.setLogLevel('SILENT');

const readScopes = ['read:projects' as const, 'read:security' as const];

/** An account with an admin and a viewer (the reviewer's case), and the API's credential resolution on the same fakes. */
const setUp = async () => {
  const people = inMemoryPeople();
  const account = await createAccount({ email: 'owner@acme.test' }, people);
  const admin = (await createUser({ email: 'alice@acme.test', accountId: account.id, role: 'admin' }, people)).user;
  const viewer = (await createUser({ email: 'victor@acme.test', accountId: account.id, role: 'viewer' }, people)).user;
  const actor = (user: { id: string }, role: 'admin' | 'viewer') => ({ accountId: account.id, userId: user.id, role });
  const authDeps = {
    credentials: people.credentials,
    oauthGrants: people.grants,
    clock: people.clock,
    rateLimiter: async (): Promise<RateDecision> => ({
      allowed: true,
      remaining: 99,
      resetSeconds: 1,
      policy: { quota: 100, windowSeconds: 2 },
    }),
  };
  const resolve = (key: string) => resolveCredential({ authorization: `Bearer ${key}` }, authDeps);
  const works = (key: string) =>
    resolve(key).then(
      () => true,
      () => false,
    );
  // GET /v1/projects behind the real pipeline: what a caller of the API gets.
  const list = createApiHandler(
    listProjectsRoute,
    async () => ({ data: { ok: true } }),
    () => authDeps,
  ) as unknown as (event: APIGatewayProxyEventV2, context: typeof lambdaContext) => Promise<HttpResponse>;
  const call = async (key: string) => {
    const response = await list(
      apiEvent({ method: 'GET', path: '/v1/projects', headers: { authorization: `Bearer ${key}` } }),
      lambdaContext,
    );
    const body = JSON.parse(response.body ?? '{}');
    delete body.error?.request_id;
    return { status: response.statusCode, wwwAuthenticate: response.headers['WWW-Authenticate'], body };
  };
  const remove = (user: { id: string }) =>
    removeMember({ accountId: account.id, userId: user.id, actor: { type: 'user', id: admin.id } }, people);
  return { people, account, admin, viewer, actor, resolve, works, call, remove };
};

describe('a personal access token belongs to the person who made it', () => {
  it('records the creator of keys made in the dashboard; a roll keeps the original one, whoever rolls; the system makes keys of nobody', async () => {
    const { people, account, admin, viewer, actor } = await setUp();
    const pat = await createKey(actor(viewer, 'viewer'), { type: 'pat', name: 'laptop', scopes: readScopes }, people);
    const live = await createKey(actor(admin, 'admin'), { type: 'live', name: 'CI', scopes: ['write:projects'] }, people);
    expect(pat.created_by_user_id).toBe(viewer.id);
    expect(live.created_by_user_id).toBe(admin.id);
    expect((await people.credentials.findById(pat.id))?.created_by_user_id).toBe(viewer.id);

    // A token is rolled by the person who made it; an API key by any admin, and stays its maker's.
    const rolled = await rollKey(actor(viewer, 'viewer'), pat.id, 0, people);
    expect(rolled.created_by_user_id).toBe(viewer.id);
    expect((await people.credentials.findById(rolled.id))?.created_by_user_id).toBe(viewer.id);
    const otherAdmin = { ...admin, id: 'usr_other_admin' };
    expect((await rollKey(actor(otherAdmin, 'admin'), live.id, 0, people)).created_by_user_id).toBe(admin.id);

    const system = await createCredential({ accountId: account.id, type: 'live', name: 'default live key', scopes: readScopes }, people);
    expect(system.created_by_user_id).toBeNull();
  });

  it('works while its owner is a member, and is refused exactly as a revoked one once they are removed', async () => {
    const { people, admin, viewer, actor, works, call, remove } = await setUp();
    const pat = await createKey(actor(viewer, 'viewer'), { type: 'pat', name: 'laptop', scopes: readScopes }, people);
    const revoked = await createKey(actor(admin, 'admin'), { type: 'pat', name: 'old', scopes: readScopes }, people);
    await revokeKey(actor(admin, 'admin'), revoked.id, people);

    expect(await works(pat.key)).toBe(true);
    expect((await call(pat.key)).status).toBe(200);
    people.clock.advance(3_600_000);
    expect(await works(pat.key)).toBe(true);

    await remove(viewer);
    const refused = await call(pat.key);
    expect(refused.status).toBe(401);
    // The same answer as for a revoked token: status, code, message and challenge, no hint why.
    expect(refused).toEqual(await call(revoked.key));
    expect(refused.body.error.code).toBe('unauthorized');
    expect(refused.wwwAuthenticate).toMatch(/^Bearer /);
    // Stays refused: the removal revoked the token itself.
    people.clock.advance(86_400_000);
    expect(await works(pat.key)).toBe(false);
    expect((await people.credentials.findById(pat.id))?.revoked_at).not.toBeNull();
  });

  it('an owner who comes back starts afresh: the token stays revoked; one whose role became viewer keeps only its read: scopes', async () => {
    const { people, account, admin, actor, resolve, remove } = await setUp();
    const other = (await createUser({ email: 'olga@acme.test', accountId: account.id, role: 'admin' }, people)).user;
    const pat = await createKey(
      actor(other, 'admin'),
      { type: 'pat', name: 'script', scopes: ['read:projects', 'write:projects'] },
      people,
    );
    expect((await resolve(pat.key)).scopes).toEqual(['read:projects', 'write:projects']);
    await remove(other);
    expect((await apiErrorOf(resolve(pat.key))).code).toBe('unauthorized');
    await createUser({ email: 'olga@acme.test', accountId: account.id, role: 'viewer', actor: { type: 'user', id: admin.id } }, people);
    expect((await apiErrorOf(resolve(pat.key))).code).toBe('unauthorized');

    // A member whose role changes to viewer (no removal) keeps their token with its read: scopes only.
    const kept = await createKey(actor(admin, 'admin'), { type: 'pat', name: 'mine', scopes: ['read:projects', 'write:projects'] }, people);
    await people.users.removeMembership(admin.id, account.id);
    await people.users.addMembership({ account_id: account.id, user_id: admin.id, role: 'viewer', created_at: new Date().toISOString() });
    expect((await resolve(kept.key)).scopes).toEqual(['read:projects']);
  });

  it('the API keys a removed member made stay the account’s and keep working', async () => {
    const { people, actor, works, call, remove, account } = await setUp();
    const leaving = (await createUser({ email: 'lena@acme.test', accountId: account.id, role: 'admin' }, people)).user;
    const keys = await Promise.all(
      (['live', 'test', 'ro'] as const).map((type) => createKey(actor(leaving, 'admin'), { type, name: type, scopes: readScopes }, people)),
    );
    await remove(leaving);
    for (const key of keys) expect(await works(key.key)).toBe(true);
    expect((await call(keys[0]!.key)).status).toBe(200);
  });

  it('a personal access token made before creators were recorded has no owner and keeps working as before', async () => {
    const { people, account, viewer, works, call, remove } = await setUp();
    const value = generateCredentialValue('pat');
    // As stored before this change: no created_by_user_id at all.
    const legacy = {
      id: 'key_legacy',
      account_id: account.id,
      type: 'pat' as const,
      name: 'old laptop',
      scopes: readScopes,
      hash: hashCredentialValue(value),
      hint: redactCredentialValue(value),
      created_at: new Date(people.clock.now()).toISOString(),
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
    };
    await people.credentials.create(legacy as Parameters<typeof people.credentials.create>[0]);
    expect((await people.credentials.findById('key_legacy'))?.created_by_user_id).toBeNull();
    expect(await works(value)).toBe(true);
    await remove(viewer);
    expect(await works(value)).toBe(true);
    expect((await call(value)).status).toBe(200);
  });

  it('without the reader of memberships a token with an owner is refused, never let through', async () => {
    const { people, viewer, actor } = await setUp();
    const pat = await createKey(actor(viewer, 'viewer'), { type: 'pat', name: 'laptop', scopes: readScopes }, people);
    const error = await apiErrorOf(resolveCredential({ apiKey: pat.key }, { credentials: people.credentials, clock: people.clock }));
    expect(error.code).toBe('unauthorized');
  });
});

describe('removing a member', () => {
  it('counts the working keys they made, by kind, in the answer and the audit record', async () => {
    const { people, account, admin, viewer, actor, remove } = await setUp();
    await createKey(actor(viewer, 'viewer'), { type: 'pat', name: 'a', scopes: readScopes }, people);
    await createKey(actor(viewer, 'viewer'), { type: 'pat', name: 'b', scopes: readScopes }, people);
    await createKey(actor(viewer, 'viewer'), { type: 'ro', name: 'c', scopes: readScopes }, people);
    const gone = await createKey(actor(viewer, 'viewer'), { type: 'ro', name: 'd', scopes: readScopes }, people);
    await revokeKey(actor(admin, 'admin'), gone.id, people);
    await createKey(actor(admin, 'admin'), { type: 'live', name: 'admin’s', scopes: readScopes }, people);

    const byPerson = keysCreatedByPerson(await people.credentials.listByAccount(account.id), people.clock.now());
    expect(byPerson.get(viewer.id)).toEqual({ apiKeys: 1, personalAccessTokens: 2 });
    expect(byPerson.get(admin.id)).toEqual({ apiKeys: 1, personalAccessTokens: 0 });
    expect(await remove(viewer)).toEqual({ apiKeys: 1, personalAccessTokens: 2 });
    expect(people.audit.records.at(-1)).toMatchObject({
      action: 'user.removed',
      target_id: viewer.id,
      details: { api_keys_created: 1, personal_access_tokens_revoked: 2 },
    });
  });
});
