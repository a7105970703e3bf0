import { adminDeps } from '../../functions/adapters/dynamodb/admin-deps';
import { revokeCredential } from '../../functions/core/credentials/manage-credentials';
import { as, call } from './support/http';
import { newAccount, runtimeTable } from './support/runtime';

const repository = 'https://github.com/acme/app';

describe('credentials', () => {
  it('every credential type authenticates, by Bearer or X-API-Key', async () => {
    const { live, test, newKey } = await newAccount();
    const ro = await newKey('ro', ['read:projects']);
    const pat = await newKey('pat', ['read:projects', 'write:projects']);
    for (const key of [live.key, test.key, ro.key, pat.key]) {
      expect((await call('GET', '/projects', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await call('GET', '/projects', { headers: { 'X-API-Key': key } })).status).toBe(200);
    }
    expect((await as(pat.key).post('/projects', { name: 'p', repository })).status).toBe(201);
  });

  it('a revoked key is refused on the very next request', async () => {
    const { live } = await newAccount();
    expect((await as(live.key).get('/projects')).status).toBe(200);
    await revokeCredential(live.id, adminDeps(await runtimeTable()));
    const answer = await as(live.key).get('/projects');
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('unauthorized');
  });

  it('a value with a wrong checksum is refused', async () => {
    const { live } = await newAccount();
    const last = live.key.endsWith('A') ? 'B' : 'A';
    const answer = await as(live.key.slice(0, -1) + last).get('/projects');
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toMatch(/malformed/);
  });

  it("another account's project is not found, whatever the operation", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const { body } = await as(owner.live.key).post('/projects', { name: 'mine', repository });
    const path = `/projects/${body.data.id}`;
    expect((await as(other.live.key).get(path)).status).toBe(404);
    expect((await as(other.live.key).patch(path, { name: 'stolen' })).status).toBe(404);
    expect((await as(other.live.key).delete(path)).status).toBe(404);
    expect((await as(other.live.key).get('/projects')).body.meta.total).toBe(0);
    expect((await as(owner.live.key).get(path)).body.data.name).toBe('mine');
  });

  it('test and live data never see each other', async () => {
    const { live, test } = await newAccount();
    const liveProject = (await as(live.key).post('/projects', { name: 'live one', repository })).body.data;
    const testProject = (await as(test.key).post('/projects', { name: 'test one', repository })).body.data;
    expect((await as(test.key).get(`/projects/${liveProject.id}`)).status).toBe(404);
    expect((await as(live.key).get(`/projects/${testProject.id}`)).status).toBe(404);
    expect((await as(live.key).get('/projects')).body.data.map((p: { id: string }) => p.id)).toEqual([liveProject.id]);
    expect((await as(test.key).get('/projects')).body.data.map((p: { id: string }) => p.id)).toEqual([testProject.id]);
  });

  it('a read-only key reads but never writes', async () => {
    const { live, newKey } = await newAccount();
    const ro = await newKey('ro', ['read:projects']);
    const project = (await as(live.key).post('/projects', { name: 'p', repository })).body.data;
    expect((await as(ro.key).get(`/projects/${project.id}`)).status).toBe(200);
    for (const answer of [
      await as(ro.key).post('/projects', { name: 'q', repository }),
      await as(ro.key).patch(`/projects/${project.id}`, { name: 'q' }),
      await as(ro.key).delete(`/projects/${project.id}`),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('insufficient_scope');
    }
  });

  it('records last_used_at without writing on every request', async () => {
    const { account, live } = await newAccount();
    const deps = adminDeps(await runtimeTable());
    const before = (await deps.credentials.listByAccount(account.id)).find((c) => c.id === live.id);
    expect(before?.last_used_at).toBeNull();
    await as(live.key).get('/projects');
    const first = (await deps.credentials.listByAccount(account.id)).find((c) => c.id === live.id)?.last_used_at;
    expect(first).toEqual(expect.any(String));
    await as(live.key).get('/projects');
    const second = (await deps.credentials.listByAccount(account.id)).find((c) => c.id === live.id)?.last_used_at;
    expect(second).toBe(first);
  });
});
