import { as } from './support/http';
import { newAccount } from './support/runtime';

describe('projects', () => {
  it('are created, read, changed, listed and deleted', async () => {
    const { live } = await newAccount();
    const api = as(live.key);

    const created = await api.post('/projects', { name: 'Shop', repository: 'https://github.com/acme/shop', description: 'Storefront' });
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect(project).toEqual({
      id: expect.stringMatching(/^proj_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Shop',
      repository: 'https://github.com/acme/shop',
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
});
