import {
  createClient,
  isNotModified,
  responseOf,
  ServiceApiError,
  webhooks,
  type RetryOptions,
  type ServiceEvent,
} from '@project-automation-service/sdk';
import { checkedFetch } from './support/contract';
import { as } from './support/http';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { apiUrl, newAccount } from './support/runtime';
import { fixtureRepository } from './support/workflows';

/** The TypeScript SDK (clients/typescript) against the real local runtime. */

const clientFor = (apiKey: string, fetch?: typeof globalThis.fetch, retry?: RetryOptions) =>
  createClient({ baseUrl: apiUrl(), apiKey, fetch: checkedFetch(fetch), retry });

describe('the SDK against the local runtime', () => {
  let receiver: Receiver | undefined;
  afterAll(() => receiver?.close());

  it('creates, reads and pages through projects with typed answers', async () => {
    const { test: key } = await newAccount();
    const api = clientFor(key.key);
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    for (const name of names) {
      const { data } = await api.post('/v1/projects', { body: { name, repository: `https://github.com/acme/${name.toLowerCase()}` } });
      expect(data.id).toMatch(/^proj_/);
    }
    const first = (await api.get('/v1/projects', { params: { query: { per_page: 2, sort: 'name', order: 'asc' } } })).data[0];
    const { data: read } = await api.get('/v1/projects/{id}', { params: { path: { id: first?.id as string } } });
    expect(read.name).toBe('Alpha');

    const seen: string[] = [];
    for await (const project of api.paginate('/v1/projects', { params: { query: { per_page: 2, sort: 'name', order: 'asc' } } })) {
      seen.push(project.name);
    }
    expect(seen).toEqual(names);
  });

  it('changes a project only while the ETag it read is current: a stale one throws 412 precondition_failed and changes nothing', async () => {
    const { test: key } = await newAccount();
    const api = clientFor(key.key);
    const created = await api.post('/v1/projects', { body: { name: 'Shop', repository: 'https://github.com/acme/shop' } });
    const path = { id: created.data.id };
    const read = await api.get('/v1/projects/{id}', { params: { path } });
    const etag = responseOf(read)?.etag as string;
    expect(etag).toBe(responseOf(created)?.etag);
    expect(isNotModified(await api.get('/v1/projects/{id}', { params: { path, header: { 'If-None-Match': etag } } }))).toBe(true);

    const changed = await api.patch('/v1/projects/{id}', { params: { path, header: { 'If-Match': etag } }, body: { description: 'Mine' } });
    expect(changed.data.description).toBe('Mine');
    const stale = await api
      .patch('/v1/projects/{id}', { params: { path, header: { 'If-Match': etag } }, body: { description: 'Lost' } })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ServiceApiError);
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' });
    await api.delete('/v1/projects/{id}', { params: { path, header: { 'If-Match': responseOf(changed)?.etag as string } } });
    expect(await api.get('/v1/projects/{id}', { params: { path } }).catch((error: ServiceApiError) => error.status)).toBe(404);
  });

  it('throws typed errors carrying the status, code, details and request id', async () => {
    const { test: key } = await newAccount();
    const api = clientFor(key.key);
    const missing = await api
      .get('/v1/projects/{id}', { params: { path: { id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G' } } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ServiceApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });

    const invalid = (await api
      .post('/v1/projects', { body: { name: ' ', repository: 'nope' } })
      .catch((e: unknown) => e)) as ServiceApiError;
    expect(invalid.status).toBe(422);
    expect(invalid.code).toBe('validation_error');
    expect(invalid.details).toHaveProperty('field');
    expect(invalid.requestId).toBe(invalid.headers.get('x-request-id'));

    const readOnly = await (await newAccount()).newKey('ro', ['read:projects']);
    const refused = await clientFor(readOnly.key)
      .post('/v1/projects', { body: { name: 'x', repository: 'https://github.com/acme/x' } })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, code: 'insufficient_scope', details: { required_scope: 'write:projects' } });
  });

  it('sends a POST whose answer was lost again under the same Idempotency-Key: one project, the first answer replayed', async () => {
    const { test: key } = await newAccount();
    let dropped = 0;
    const statuses: (string | null)[] = [];
    // The request reaches the service, but its answer is lost on the way back, once.
    const lossy: typeof globalThis.fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (dropped === 0) {
        dropped += 1;
        throw new TypeError('fetch failed: connection reset');
      }
      statuses.push(response.headers.get('idempotent-replayed'));
      return response;
    };
    const { data } = await clientFor(key.key, lossy).post('/v1/projects', {
      body: { name: 'Once', repository: 'https://github.com/acme/once' },
    });
    expect(statuses).toEqual(['true']);
    const { data: all } = await clientFor(key.key).get('/v1/projects');
    expect(all.map((p) => p.id)).toEqual([data.id]);
  });

  it("revalidates a finding's patch: the text first, then NotModified with its ETag while the copy held is current", async () => {
    const { test: key } = await newAccount();
    const api = clientFor(key.key);
    // A planted token (assembled so that no scanner flags this file) gives a secrets finding to remediate.
    const token = ['ghp', '_', 'Sd4', 'kR7'.repeat(2), 'Pq8mW2vT6yU3bN1cX5eA9gJ0hL4zM'].join('').slice(0, 40);
    const repository = await fixtureRepository({ 'config/deploy.js': `export const github = '${token}';\n`, 'README.md': '# Deploy\n' });
    const { data: project } = await api.post('/v1/projects', { body: { name: 'Deploy', repository: repository.url } });
    const { data: queued } = await api.post('/v1/security/scans', { body: { project_id: project.id, scan_types: ['secrets'] } });
    const settled = (status: string) => !['queued', 'running', 'remediating'].includes(status);
    await eventually(
      async () => {
        const { data } = await api.get('/v1/security/scans/{id}', { params: { path: { id: queued.id } } });
        return settled(data.status) ? data : undefined;
      },
      60_000,
      () => `scan ${queued.id} did not finish`,
      100,
    );
    const { data: findings } = await api.get('/v1/security/findings', { params: { query: { project_id: project.id, type: 'secrets' } } });
    const id = findings[0]?.id as string;
    await api.post('/v1/security/findings/{id}/remediate', { params: { path: { id } } });
    const remediated = await eventually(
      async () => {
        const { data } = await api.get('/v1/security/findings/{id}', { params: { path: { id } } });
        return settled(data.status) ? data : undefined;
      },
      30_000,
      () => `finding ${id} is still remediating`,
      100,
    );
    const etag = `"${remediated.remediation?.patch?.sha256}"`;

    const patch = await api.get('/v1/security/findings/{id}/patch', { params: { path: { id } } });
    expect(patch).toContain('diff --git a/config/deploy.js b/config/deploy.js');

    const held = await api.get('/v1/security/findings/{id}/patch', { params: { path: { id }, header: { 'If-None-Match': etag } } });
    expect(held).toEqual({ notModified: true, status: 304, etag, requestId: expect.any(String) });
    expect(isNotModified(held)).toBe(true);

    const stale = await api.get('/v1/security/findings/{id}/patch', { params: { path: { id }, header: { 'If-None-Match': '"another"' } } });
    expect(isNotModified(stale)).toBe(false);
    expect(stale).toBe(patch);
  });

  it('rides out the rate limit: 429 answers are retried after Retry-After until every request succeeds', async () => {
    const { test: key } = await newAccount();
    const statuses: number[] = [];
    const counting: typeof globalThis.fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    // The integration runtime allows bursts of 100 per credential, refilled at 20 a second: the 100 requests beyond a burst
    // are served over about 5 s, so each may be refused about 5 times in a row; a client sized for bursts allows more retries.
    const api = clientFor(key.key, counting, { maxRetries: 12 });
    // Batches of 200 at once until the service has refused some (at once on a quiet machine; a busy one may refill the bucket meanwhile).
    let sent = 0;
    for (let batch = 0; batch < 5 && !statuses.includes(429); batch += 1) {
      const answers = await Promise.all(Array.from({ length: 200 }, () => api.get('/v1/projects', { params: { query: { per_page: 1 } } })));
      expect(answers.every((answer) => Array.isArray(answer.data))).toBe(true);
      sent += 200;
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200)).toHaveLength(sent);
  }, 120_000);

  it('starts a workflow, watches it finish, follows its events and verifies its webhook deliveries', async () => {
    const { test: key } = await newAccount();
    const api = clientFor(key.key);
    receiver = await startReceiver({ status: 204 });
    const { data: hook } = await api.post('/v1/webhooks', { body: { url: receiver.url('/hooks'), events: ['workflow.completed'] } });
    const repository = await fixtureRepository();
    const { data: project } = await api.post('/v1/projects', { body: { name: 'Greeter', repository: repository.url } });
    const { data: workflow } = await api.post('/v1/workflows', {
      body: { project_id: project.id, prompt: 'Add a note', config: { ai_provider: 'local' } },
    });
    const finished = await eventually(
      async () => {
        const { data } = await api.get('/v1/workflows/{id}', { params: { path: { id: workflow.id } } });
        return ['completed', 'failed', 'cancelled'].includes(data.status) ? data : undefined;
      },
      60_000,
      () => `workflow ${workflow.id} did not finish`,
      200,
    );
    expect(finished.status).toBe('completed');

    // Follow the event stream from the first event on, as `listen` does.
    const { data: oldest } = await api.get('/v1/events', { params: { query: { order: 'asc', per_page: 1 } } });
    const followed = await eventually(
      async () => {
        const events = [...oldest] as ServiceEvent[];
        for await (const event of api.paginate('/v1/events', { params: { query: { starting_after: oldest[0]?.id, per_page: 3 } } })) {
          events.push(event as ServiceEvent);
        }
        return events.some((e) => e.type === 'workflow.completed') ? events : undefined;
      },
      30_000,
      () => 'workflow.completed never reached the forward read',
      500,
    );
    expect(followed[0]?.type).toBe('workflow.created');
    expect(followed.map((e) => e.id)).toEqual([...followed.map((e) => e.id)].sort());

    const [delivery] = await receiver.waitFor(1, 30_000);
    const event = await webhooks.constructEvent(
      delivery?.rawBody as Uint8Array,
      delivery?.headers['x-service-signature'] as string,
      hook.secret as string,
    );
    expect(event.type).toBe('workflow.completed');
    if (event.type === 'workflow.completed') expect(event.data.workflow_id).toBe(workflow.id);
    await expect(
      webhooks.constructEvent(delivery?.rawBody as Uint8Array, delivery?.headers['x-service-signature'] as string, 'whsec_wrong'),
    ).rejects.toThrow('No v1 signature matches this body under this secret');
    // The same answer through plain HTTP: the SDK adds nothing the API does not say.
    expect((await as(key.key).get(`/workflows/${workflow.id}`)).body.data.status).toBe('completed');
  });
});
