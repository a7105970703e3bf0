import { call, as } from './support/http';
import { newAccount } from './support/runtime';
import { recordEvent } from './support/webhooks';
import { clockPast } from './support/clock';

/**
 * Webhook registration (CRUD, validation, target policy, scopes, tenancy) and the event catalogue
 * and log, over real HTTP against the local runtime.
 */
const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const webhookId = /^wh_[0-9A-HJKMNP-TV-Z]{26}$/;
/**
 * A public address given literally, so that no DNS is involved; nothing is ever sent to it here.
 * Some of these webhooks are live, active and subscribed to `*`: they stay quiet only because no
 * event happens in their accounts. Should one ever happen, the runtime's delivery would be refused
 * by the network fence (test/support/network-fence.ts), which fails the run.
 */
const publicTarget = 'https://93.184.215.14/hooks/pas';
/** Test-mode webhooks may target the local machine in the local runtime; nothing listens here. */
const localTarget = 'http://127.0.0.1:9/hook';

const expectValidation = (answer: { status: number; body: any }, field: string) => {
  expect(answer.status).toBe(422);
  expect(answer.body.error.code).toBe('validation_error');
  const fields = [answer.body.error.details?.field, ...(answer.body.error.errors ?? []).map((e: { field: string }) => e.field)];
  // An element of an array is named by its path (`events.1`).
  expect(fields.filter((f) => f === field || String(f).startsWith(`${field}.`))).not.toHaveLength(0);
};

describe('webhooks: registration', () => {
  it('are created with a secret shown only once, read, listed, changed and deleted', async () => {
    const { live } = await newAccount();
    const api = as(live.key);

    const created = await api.post('/webhooks', {
      url: publicTarget,
      events: ['workflow.completed', 'deployment.failed'],
      description: 'CI',
    });
    expect(created.status).toBe(201);
    const hook = created.body.data;
    expect(hook).toEqual({
      id: expect.stringMatching(webhookId),
      url: publicTarget,
      events: ['workflow.completed', 'deployment.failed'],
      active: true,
      status: 'enabled',
      description: 'CI',
      created_at: expect.stringMatching(timestamp),
      updated_at: hook.created_at,
      failed_at: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/webhooks/${hook.id}$`));
    const { secret, ...view } = hook;

    // After its creation the secret is never shown again.
    const read = await api.get(`/webhooks/${hook.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(view);
    expect(read.text).not.toContain(secret);
    expect(read.body.data).not.toHaveProperty('previous_secret');
    const listed = await api.get('/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([view]);
    expect(listed.text).not.toContain(secret);
    expect(listed.body.meta).toMatchObject({ total: 1 });

    // Each field on its own, then several at once.
    const url = await api.patch(`/webhooks/${hook.id}`, { url: 'https://93.184.215.14/other' });
    expect(url.status).toBe(200);
    expect(url.body.data).toMatchObject({
      url: 'https://93.184.215.14/other',
      events: ['workflow.completed', 'deployment.failed'],
      description: 'CI',
      active: true,
    });
    expect((await api.patch(`/webhooks/${hook.id}`, { events: ['*'] })).body.data.events).toEqual(['*']);
    expect((await api.patch(`/webhooks/${hook.id}`, { active: false })).body.data).toMatchObject({ active: false, status: 'enabled' });
    expect((await api.patch(`/webhooks/${hook.id}`, { description: null })).body.data.description).toBeNull();
    const several = await api.patch(`/webhooks/${hook.id}`, {
      active: true,
      description: 'Deploys',
      events: ['deployment.completed', 'deployment.completed'],
    });
    expect(several.status).toBe(200);
    expect(several.body.data).toMatchObject({
      active: true,
      description: 'Deploys',
      events: ['deployment.completed'],
      url: 'https://93.184.215.14/other',
    });
    expect(several.text).not.toContain(secret);
    expect(Date.parse(several.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(hook.updated_at));
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toEqual(several.body.data);

    // An empty change, an unknown field, and invalid values are refused and change nothing.
    expect((await api.patch(`/webhooks/${hook.id}`, {})).status).toBe(422);
    expectValidation(await api.patch(`/webhooks/${hook.id}`, { secret: 'whsec_mine' }), 'secret');
    expectValidation(await api.patch(`/webhooks/${hook.id}`, { status: 'enabled' }), 'status');
    expectValidation(await api.patch(`/webhooks/${hook.id}`, { events: [] }), 'events');
    expectValidation(await api.patch(`/webhooks/${hook.id}`, { active: 'yes' }), 'active');
    expectValidation(await api.patch(`/webhooks/${hook.id}`, { url: 'http://93.184.215.14/plain' }), 'url');
    expect((await api.get(`/webhooks/${hook.id}`)).body.data).toEqual(several.body.data);

    const deleted = await api.delete(`/webhooks/${hook.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api.patch(`/webhooks/${hook.id}`, { active: true })).status).toBe(404);
    expect((await api.delete(`/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api.get('/webhooks')).body.data).toEqual([]);
  });

  it('carry an ETag that a secret rotation changes too: a change given a stale one in If-Match is 412 and writes nothing', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const created = await api.post('/webhooks', { url: localTarget, events: ['*'] });
    const path = `/webhooks/${created.body.data.id}`;
    const tag = created.headers.get('etag')!;
    expect(tag).toMatch(/^"[0-9a-f]{64}"$/);
    // The tag names what GET shows, which never holds the secret the creation answer shows once.
    const read = await api.get(path);
    expect(read.headers.get('etag')).toBe(tag);
    expect((await api.get(path, { headers: { 'If-None-Match': tag } })).status).toBe(304);

    expect((await api.post(`${path}/rotate-secret`, {})).status).toBe(200);
    const stale = await api.patch(path, { active: false }, { headers: { 'If-Match': tag } });
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('precondition_failed');
    expect((await api.delete(path, { headers: { 'If-Match': tag } })).status).toBe(412);
    expect((await api.get(path)).body.data.active).toBe(true);

    const current = (await api.get(path)).headers.get('etag')!;
    const paused = await api.patch(path, { active: false }, { headers: { 'If-Match': current } });
    expect(paused.status).toBe(200);
    expect(paused.body.data.active).toBe(false);
    expect(paused.headers.get('etag')).toBe((await api.get(path)).headers.get('etag'));
    expect((await api.delete(path, { headers: { 'If-Match': paused.headers.get('etag')! } })).status).toBe(204);
    expect((await api.get(path)).status).toBe(404);
  });

  it('show the previous secret’s overlap while it signs and answer as if it were gone once it expired, the ETag then naming what they show', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const created = await api.post('/webhooks', { url: localTarget, events: ['*'] });
    const path = `/webhooks/${created.body.data.id}`;
    const rotated = await api.post(`${path}/rotate-secret`, { expires_in: 1 });
    expect(rotated.status).toBe(200);
    const expiresAt = rotated.body.data.previous_secret_expires_at;
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());

    await clockPast(expiresAt);
    const read = await api.get(path);
    expect(read.body.data).toMatchObject({ id: created.body.data.id, previous_secret_expires_at: null });
    expect((await api.get('/webhooks')).body.data).toEqual([read.body.data]);
    const paused = await api.patch(path, { active: false }, { headers: { 'If-Match': read.headers.get('etag')! } });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ active: false, previous_secret_expires_at: null });
  });

  it('answer a PATCH that changes nothing with the webhook as stored: updated_at, the ETag and the events stay, a stale If-Match is still 412', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const created = await api.post('/webhooks', { url: localTarget, events: ['*'], description: 'Watcher' });
    const path = `/webhooks/${created.body.data.id}`;
    const tag = created.headers.get('etag')!;
    // Any write from now on would store a later updated_at.
    await clockPast(created.body.data.updated_at);

    for (const same of [{ active: true }, { events: ['*'] }, { url: localTarget, description: 'Watcher', active: true }]) {
      const answer = await api.patch(path, same, { headers: { 'If-Match': tag } });
      expect({ status: answer.status, etag: answer.headers.get('etag') }).toEqual({ status: 200, etag: tag });
      expect(answer.body.data).toEqual((await api.get(path)).body.data);
    }
    const read = await api.get(path);
    expect({ etag: read.headers.get('etag'), updated_at: read.body.data.updated_at }).toEqual({
      etag: tag,
      updated_at: created.body.data.updated_at,
    });
    expect((await api.get('/events?type=webhook.enabled')).body.data).toEqual([]);

    expect((await api.patch(path, { description: 'Watches all' })).status).toBe(200);
    const stale = await api.patch(path, { active: true }, { headers: { 'If-Match': tag } });
    expect({ status: stale.status, code: stale.body.error?.code }).toEqual({ status: 412, code: 'precondition_failed' });
  });

  it('lists filter by status', async () => {
    const { test } = await newAccount();
    const api = as(test.key);
    const a = (await api.post('/webhooks', { url: localTarget, events: ['*'] })).body.data;
    const b = (await api.post('/webhooks', { url: localTarget, events: ['*'], active: false })).body.data;

    const enabled = await api.get('/webhooks?status=enabled');
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.map((w: { id: string }) => w.id).sort()).toEqual([a.id, b.id].sort());
    const failed = await api.get('/webhooks?status=failed');
    expect(failed.status).toBe(200);
    expect(failed.body.data).toEqual([]);
    expect(failed.body.meta.total).toBe(0);
    expectValidation(await api.get('/webhooks?status=paused'), 'status');
  });

  it('validates the subscribed event types: at least one known type, or *', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    expectValidation(await api.post('/webhooks', { url: publicTarget, events: [] }), 'events');
    expectValidation(await api.post('/webhooks', { url: publicTarget, events: ['workflow.exploded'] }), 'events');
    expectValidation(await api.post('/webhooks', { url: publicTarget, events: ['workflow.completed', 'nope'] }), 'events');
    expectValidation(await api.post('/webhooks', { url: publicTarget, events: 'workflow.completed' }), 'events');
    expectValidation(await api.post('/webhooks', { url: publicTarget }), 'events');
    expectValidation(await api.post('/webhooks', { events: ['*'] }), 'url');
    expectValidation(await api.post('/webhooks', { url: publicTarget, events: ['*'], secret: 'whsec_x' }), 'secret');

    const star = await api.post('/webhooks', { url: publicTarget, events: ['*'] });
    expect(star.status).toBe(201);
    expect(star.body.data.events).toEqual(['*']);
    const cancelled = await api.post('/webhooks', { url: publicTarget, events: ['workflow.cancelled', 'workflow.cancelled'] });
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.data.events).toEqual(['workflow.cancelled']);
    // `*` with other types means every type: stored alone, on a change too.
    const everything = await api.patch(`/webhooks/${cancelled.body.data.id}`, { events: ['workflow.failed', '*'] });
    expect(everything.body.data.events).toEqual(['*']);
    // Nothing refused was stored.
    expect((await api.get('/webhooks')).body.meta.total).toBe(2);
  });

  it('refuses targets that are not https in live mode, or private, loopback or metadata addresses', async () => {
    const { live, test } = await newAccount();
    const liveApi = as(live.key);
    const testApi = as(test.key);

    const refusedLive = [
      'http://93.184.215.14/hook', // live mode requires https
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'https://localhost:8443/hook',
      'https://api.localhost/hook',
      'https://2130706433/hook', // 127.0.0.1 spelled as one number
      'https://0x7f.1/hook', // 127.0.0.1 in hex
      'https://100.64.0.1/hook', // CGNAT
      'https://192.168.1.10/hook',
      'https://[fc00::1]/hook', // ULA
      'https://[fd00:ec2::254]/hook', // AWS metadata over IPv6
    ];
    for (const url of refusedLive) {
      const answer = await liveApi.post('/webhooks', { url, events: ['*'] });
      expect({ url, status: answer.status }).toEqual({ url, status: 422 });
      expectValidation(answer, 'url');
    }

    // The metadata and link-local range is refused even to a test key in the local runtime.
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://169.254.1.1/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/', // Alibaba Cloud metadata
    ]) {
      const answer = await testApi.post('/webhooks', { url, events: ['*'] });
      expect({ url, status: answer.status }).toEqual({ url, status: 422 });
      expectValidation(answer, 'url');
    }
    // Not a URL at all, or with credentials in it.
    expectValidation(await testApi.post('/webhooks', { url: 'not a url', events: ['*'] }), 'url');
    expectValidation(await testApi.post('/webhooks', { url: 'ftp://127.0.0.1/hook', events: ['*'] }), 'url');
    expectValidation(await testApi.post('/webhooks', { url: 'http://user:pw@127.0.0.1:9/hook', events: ['*'] }), 'url');

    // A test key may target this machine over http in the local runtime.
    const local = await testApi.post('/webhooks', { url: 'http://127.0.0.1:54321/hook', events: ['*'] });
    expect(local.status).toBe(201);
    expect(local.body.data.url).toBe('http://127.0.0.1:54321/hook');
    // ...but may not be moved to the metadata address afterwards.
    expectValidation(await testApi.patch(`/webhooks/${local.body.data.id}`, { url: 'http://169.254.169.254/' }), 'url');
    expect((await testApi.get(`/webhooks/${local.body.data.id}`)).body.data.url).toBe('http://127.0.0.1:54321/hook');

    // Nothing refused was stored.
    expect((await liveApi.get('/webhooks')).body.meta.total).toBe(0);
    expect((await testApi.get('/webhooks')).body.meta.total).toBe(1);
  });

  it('need write:webhooks to change and read:webhooks to read', async () => {
    const account = await newAccount();
    const reader = as((await account.newKey('live', ['read:webhooks'])).key);
    const writerOnly = as((await account.newKey('live', ['write:webhooks'])).key);
    const readOnly = as((await account.newKey('ro', ['read:webhooks'])).key);

    for (const api of [reader, readOnly]) {
      const refused = await api.post('/webhooks', { url: publicTarget, events: ['*'] });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('insufficient_scope');
      expect(refused.body.error.details).toEqual({ required_scope: 'write:webhooks' });
    }
    const created = await writerOnly.post('/webhooks', { url: publicTarget, events: ['*'] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;

    expect((await reader.get(`/webhooks/${id}`)).status).toBe(200);
    expect((await reader.get('/webhooks')).body.data).toHaveLength(1);
    expect((await reader.patch(`/webhooks/${id}`, { active: false })).status).toBe(403);
    expect((await reader.delete(`/webhooks/${id}`)).status).toBe(403);
    expect((await reader.post(`/webhooks/${id}/rotate-secret`, {})).status).toBe(403);
    expect((await reader.post(`/webhooks/${id}/test`, { event_type: 'workflow.completed' })).status).toBe(403);
    const readRefused = await writerOnly.get(`/webhooks/${id}`);
    expect(readRefused.status).toBe(403);
    expect(readRefused.body.error.details).toEqual({ required_scope: 'read:webhooks' });
    expect((await call('GET', '/webhooks')).status).toBe(401);
  });

  it('of another account or mode are not found', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const liveHook = (await as(owner.live.key).post('/webhooks', { url: publicTarget, events: ['*'] })).body.data;
    const testHook = (await as(owner.test.key).post('/webhooks', { url: localTarget, events: ['*'] })).body.data;

    for (const [key, id] of [
      [other.live.key, liveHook.id],
      [other.test.key, testHook.id],
      [owner.test.key, liveHook.id], // another mode of the same account
      [owner.live.key, testHook.id],
    ] as const) {
      const api = as(key);
      for (const answer of [
        await api.get(`/webhooks/${id}`),
        await api.patch(`/webhooks/${id}`, { active: false }),
        await api.post(`/webhooks/${id}/rotate-secret`, {}),
        await api.post(`/webhooks/${id}/test`, { event_type: 'workflow.completed' }),
        await api.get(`/webhooks/${id}/deliveries`),
        await api.delete(`/webhooks/${id}`),
      ]) {
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('not_found');
      }
    }
    expect((await as(other.live.key).get('/webhooks')).body.data).toEqual([]);
    expect((await as(owner.test.key).get('/webhooks')).body.data.map((w: { id: string }) => w.id)).toEqual([testHook.id]);
    // Untouched by the others' attempts.
    expect((await as(owner.live.key).get(`/webhooks/${liveHook.id}`)).body.data).toMatchObject({ active: true, url: publicTarget });
    expect((await as(owner.live.key).get('/webhooks/wh_nonsense')).status).toBe(404);
  });
});

describe('events', () => {
  const allTypes = [
    'workflow.created',
    'workflow.started',
    'workflow.stage.completed',
    'workflow.completed',
    'workflow.failed',
    'workflow.cancelled',
    'security.scan.started',
    'security.scan.completed',
    'security.finding.created',
    'security.finding.resolved',
    'security.finding.reopened',
    'security.finding.remediation.started',
    'security.finding.remediation.failed',
    'deployment.started',
    'deployment.completed',
    'deployment.failed',
    'deployment.rollback',
    'test.generation.completed',
    'test.run.completed',
    'review.completed',
    'review.comment.created',
    'webhook.failed',
    'webhook.enabled',
  ];

  it('GET /event-types lists every type with a description and an example, without credentials', async () => {
    const answer = await call('GET', '/event-types');
    expect(answer.status).toBe(200);
    const types = answer.body.data as { type: string; description: string; example: Record<string, unknown> }[];
    expect(types.map((t) => t.type).sort()).toEqual([...allTypes].sort());
    for (const entry of types) {
      expect(entry.description).toEqual(expect.any(String));
      expect(entry.description.length).toBeGreaterThan(5);
      expect(entry.example).toEqual(expect.any(Object));
      expect(Object.keys(entry.example).length).toBeGreaterThan(0);
    }
    expect(types.find((t) => t.type === 'workflow.cancelled')?.example).toMatchObject({ status: 'cancelled' });
    // The spec's workflow.completed shape.
    expect(types.find((t) => t.type === 'workflow.completed')?.example).toEqual({
      workflow_id: expect.any(String),
      project_id: expect.any(String),
      status: 'completed',
      duration_ms: expect.any(Number),
      stages: expect.any(Object),
      outputs: expect.any(Object),
    });
  });

  it('GET /events lists recorded events, filtered by type and date, one mode at a time', async () => {
    const { account, live, test } = await newAccount();
    const liveApi = as(live.key);
    const testApi = as(test.key);
    const first = await recordEvent(account.id, 'live', 'workflow.completed', { workflow_id: 'wf_1', status: 'completed' });
    const second = await recordEvent(account.id, 'live', 'deployment.failed', { id: 'dep_1', status: 'failed' });
    const third = await recordEvent(account.id, 'live', 'workflow.completed', { workflow_id: 'wf_2', status: 'completed' });
    const testOnly = await recordEvent(account.id, 'test', 'workflow.cancelled', { id: 'wf_3', status: 'cancelled' });

    const all = await liveApi.get('/events');
    expect(all.status).toBe(200);
    // Newest first by default, exactly as recorded.
    expect(all.body.data).toEqual([third, second, first]);
    expect(all.body.meta).toMatchObject({ total: 3 });
    expect((await liveApi.get('/events?order=asc')).body.data).toEqual([first, second, third]);

    const ofType = await liveApi.get('/events?type=workflow.completed');
    expect(ofType.body.data).toEqual([third, first]);
    expect(ofType.body.meta.total).toBe(2);
    expect((await liveApi.get('/events?type=workflow.cancelled')).body.data).toEqual([]);
    expectValidation(await liveApi.get('/events?type=workflow.exploded'), 'type');

    // The days the events were created in, not the clock's day now: the test may run across midnight UTC.
    const today = first.created_at.slice(0, 10);
    const tomorrow = new Date(Date.parse(third.created_at.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);
    expect((await liveApi.get(`/events?created_after=${today}`)).body.data).toEqual([third, second, first]);
    expect((await liveApi.get(`/events?created_before=${today}`)).body.data).toEqual([]);
    expect((await liveApi.get(`/events?created_after=${tomorrow}`)).body.data).toEqual([]);
    expect((await liveApi.get(`/events?created_before=${tomorrow}&type=deployment.failed`)).body.data).toEqual([second]);
    expectValidation(await liveApi.get('/events?created_after=2026-02-30'), 'created_after');

    const one = await liveApi.get(`/events/${second.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(second);

    // Live and test never see each other's events.
    expect((await testApi.get('/events')).body.data).toEqual([testOnly]);
    expect((await testApi.get(`/events/${second.id}`)).status).toBe(404);
    expect((await liveApi.get(`/events/${testOnly.id}`)).status).toBe(404);
    expect((await testApi.get(`/events/${testOnly.id}`)).body.data).toEqual(testOnly);
    // Nor does another account.
    const stranger = await newAccount();
    expect((await as(stranger.live.key).get('/events')).body.data).toEqual([]);
    expect((await as(stranger.live.key).get(`/events/${first.id}`)).status).toBe(404);
    expect((await liveApi.get('/events/evt_nonsense')).status).toBe(404);
    // Reading events needs read:webhooks.
    const projectsOnly = as((await stranger.newKey('live', ['read:projects'])).key);
    expect((await projectsOnly.get('/events')).status).toBe(403);
  });
});
