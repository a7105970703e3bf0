import { as } from './support/http';
import { newAccount } from './support/runtime';
import { clockPast } from './support/clock';
import { fixtureRepository } from './support/workflows';

describe('projects', () => {
  it('are created, read, changed, listed and deleted', async () => {
    const { live } = await newAccount();
    const api = as(live.key);

    const repository = (await fixtureRepository()).url;
    const created = await api.post('/projects', { name: 'Shop', repository, description: 'Storefront' });
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect(project).toEqual({
      id: expect.stringMatching(/^proj_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Shop',
      repository,
      description: 'Storefront',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: project.created_at,
    });
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/projects/${project.id}$`));
    expect(created.headers.get('x-request-id')).toBeTruthy();

    expect((await api.get(`/projects/${project.id}`)).body.data).toEqual(project);

    const changed = await api.patch(`/projects/${project.id}`, { description: 'The storefront' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Shop', description: 'The storefront' });
    expect(Date.parse(changed.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(project.updated_at));

    const listed = await api.get('/projects');
    expect(listed.body.data).toEqual([changed.body.data]);
    expect(listed.body.meta).toEqual({ page: 1, per_page: 20, total: 1, total_pages: 1 });

    const deleted = await api.delete(`/projects/${project.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`/projects/${project.id}`)).status).toBe(404);
    expect((await api.delete(`/projects/${project.id}`)).status).toBe(404);
    expect((await api.get('/projects')).body.meta.total).toBe(0);
  });

  it('carry an ETag: a change or deletion given a stale one in If-Match is 412 and writes nothing, a current one goes through', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const created = await api.post('/projects', { name: 'Shop', repository: 'https://github.com/acme/shop' });
    const tag = created.headers.get('etag');
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    const path = `/projects/${created.body.data.id}`;

    const read = await api.get(path);
    expect(read.headers.get('etag')).toBe(tag);
    const unchanged = await api.get(path, { headers: { 'If-None-Match': tag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(tag);

    // Two clients read the same project; the first to write wins, the second is told.
    const first = await api.patch(path, { description: 'First' }, { headers: { 'If-Match': tag! } });
    expect(first.status).toBe(200);
    const newTag = first.headers.get('etag');
    expect(newTag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(newTag).not.toBe(tag);
    const second = await api.patch(path, { description: 'Second' }, { headers: { 'If-Match': tag! } });
    expect(second.status).toBe(412);
    expect(second.body.error.code).toBe('precondition_failed');
    expect((await api.delete(path, { headers: { 'If-Match': tag! } })).status).toBe(412);
    // A weak tag never matches If-Match (strong comparison).
    expect((await api.patch(path, { description: 'Weak' }, { headers: { 'If-Match': `W/${newTag}` } })).status).toBe(412);
    const now = await api.get(path);
    expect(now.body.data.description).toBe('First');
    expect(now.headers.get('etag')).toBe(newTag);
    expect((await api.get(path, { headers: { 'If-None-Match': tag! } })).status).toBe(200);

    expect((await api.patch(path, { name: 'Store' }, { headers: { 'If-Match': `"other", ${newTag}` } })).status).toBe(200);
    expect((await api.patch(path, { name: 'Shop' }, { headers: { 'If-Match': '*' } })).status).toBe(200);
    const last = (await api.get(path)).headers.get('etag')!;
    expect((await api.delete(path, { headers: { 'If-Match': last } })).status).toBe(204);
    // Gone: not found, whatever the condition says.
    expect((await api.patch(path, { name: 'Ghost' }, { headers: { 'If-Match': '*' } })).status).toBe(404);
    expect((await api.delete(path, { headers: { 'If-Match': last } })).status).toBe(404);
  });

  it('answer a PATCH that changes nothing with the project as stored: updated_at and the ETag stay, a stale If-Match is still 412', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const repository = (await fixtureRepository()).url;
    const created = await api.post('/projects', { name: 'Shop', repository, description: 'Storefront' });
    const path = `/projects/${created.body.data.id}`;
    const tag = created.headers.get('etag')!;
    // Any write from now on would store a later updated_at.
    await clockPast(created.body.data.updated_at);

    const same = await api.patch(path, { name: 'Shop', description: 'Storefront' });
    expect({ status: same.status, etag: same.headers.get('etag'), data: same.body.data }).toEqual({
      status: 200,
      etag: tag,
      data: created.body.data,
    });
    const withTag = await api.patch(path, { repository }, { headers: { 'If-Match': tag } });
    expect({ status: withTag.status, etag: withTag.headers.get('etag') }).toEqual({ status: 200, etag: tag });
    expect((await api.get(path)).body.data).toEqual(created.body.data);

    expect((await api.patch(path, { description: 'The storefront' })).status).toBe(200);
    const stale = await api.patch(path, { description: 'The storefront' }, { headers: { 'If-Match': tag } });
    expect({ status: stale.status, code: stale.body.error?.code }).toEqual({ status: 412, code: 'precondition_failed' });
  });
});
