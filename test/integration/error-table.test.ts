import { dynamoTokenBucketStore } from '../../functions/adapters/dynamodb/rate-limit-store';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { generateCredentialValue } from '../../functions/core/credentials/key-format';
import { as, call } from './support/http';
import { newAccount, runtimeTable } from './support/runtime';

/** Every row of DESIGN.md's error table, through real HTTP. */
describe('the error table', () => {
  const repository = 'https://github.com/acme/app';

  const expectError = (answer: { status: number; headers: Headers; body: any }, status: number, code: string): void => {
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(code);
    expect(typeof answer.body.error.message).toBe('string');
    expect(answer.body.error.request_id).toBe(answer.headers.get('x-request-id'));
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  };

  it('400 invalid_json: the body is not JSON', async () => {
    const { live } = await newAccount();
    const answer = await call('POST', '/projects', {
      key: live.key,
      raw: '{"name": "x",',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(answer, 400, 'invalid_json');
  });

  it('400 invalid_json: a JSON body whose bytes are not UTF-8 is refused, not stored with U+FFFD', async () => {
    const { live } = await newAccount();
    const answer = await call('POST', '/projects', {
      key: live.key,
      raw: Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from(`","repository":"${repository}"}`)]),
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(answer, 400, 'invalid_json');
    expect(answer.body.error.message).toContain('UTF-8');
    const list = await call('GET', '/projects', { key: live.key });
    expect(list.body.data).toEqual([]);
  });

  it('400 invalid_request: Authorization and X-API-Key name different credentials', async () => {
    const { live, test } = await newAccount();
    const answer = await call('GET', '/projects', { headers: { Authorization: `Bearer ${live.key}`, 'X-API-Key': test.key } });
    expectError(answer, 400, 'invalid_request');
    const same = await call('GET', '/projects', { headers: { Authorization: `Bearer ${live.key}`, 'X-API-Key': live.key } });
    expect(same.status).toBe(200);
  });

  it('401 unauthorized with WWW-Authenticate: missing, malformed, well-formed but unknown credential', async () => {
    const cases: Record<string, string>[] = [
      {},
      { Authorization: 'Basic dXNlcjpwYXNz' },
      { Authorization: 'Bearer svc_live_nothing' },
      { 'X-API-Key': generateCredentialValue('live') },
    ];
    for (const headers of cases) {
      const answer = await call('GET', '/projects', { headers });
      expectError(answer, 401, 'unauthorized');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('403 insufficient_scope names the scope the route requires', async () => {
    const { newKey } = await newAccount();
    const reader = await newKey('pat', ['read:projects']);
    const answer = await as(reader.key).post('/projects', { name: 'x', repository });
    expectError(answer, 403, 'insufficient_scope');
    expect(answer.body.error.details).toEqual({ required_scope: 'write:projects' });
    const noProjects = await newKey('live', ['read:workflows']);
    expectError(await as(noProjects.key).get('/projects'), 403, 'insufficient_scope');
  });

  it('404 not_found: unknown id, malformed id, unknown path', async () => {
    const { live } = await newAccount();
    expectError(await as(live.key).get('/projects/proj_01J00000000000000000000000'), 404, 'not_found');
    expectError(await as(live.key).get(`/projects/${'x'.repeat(3000)}`), 404, 'not_found');
    expectError(await as(live.key).patch('/projects/proj_01J00000000000000000000000', { name: 'y' }), 404, 'not_found');
    expectError(await call('GET', '/nothing-here'), 404, 'not_found');
    expectError(await call('GET', '/projects/proj_x/sub'), 404, 'not_found');
  });

  it('405 method_not_allowed with Allow on a known path', async () => {
    const answer = await call('PUT', '/projects');
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, POST');
    const onItem = await call('POST', '/projects/proj_01J00000000000000000000000');
    expect(onItem.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('413 payload_too_large over 1 MiB', async () => {
    const { live } = await newAccount();
    const answer = await as(live.key).post('/projects', { name: 'big', repository, description: 'x'.repeat(1024 * 1024) });
    expectError(answer, 413, 'payload_too_large');
  });

  it('415 unsupported_media_type: a write without Content-Type: application/json', async () => {
    const { live } = await newAccount();
    const body = JSON.stringify({ name: 'x', repository });
    expectError(
      await call('POST', '/projects', { key: live.key, raw: body, headers: { 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await call('PATCH', '/projects/proj_01J00000000000000000000000', { key: live.key, raw: body }),
      415,
      'unsupported_media_type',
    );
  });

  it('422 validation_error with details { field, issue } and every issue listed', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const missing = await api.post('/projects', { repository });
    expectError(missing, 422, 'validation_error');
    expect(missing.body.error.details).toEqual({ field: 'name', issue: expect.any(String) });

    const several = await api.post('/projects', { name: '', repository: 'ftp://nope', extra: true });
    expectError(several, 422, 'validation_error');
    expect(several.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'name', 'repository']);

    expectError(await api.post('/projects', ['not', 'an', 'object']), 422, 'validation_error');
    expectError(await api.get('/projects?per_page=101'), 422, 'validation_error');
  });

  it.each(['/workflows', '/security/scans', '/security/findings', '/deployments', '/tests', '/reviews'])(
    '422 validation_error: %s?project_id= that is not a project id; a well-formed id of no project lists nothing',
    async (list) => {
      const api = as((await newAccount()).live.key);
      for (const malformed of ['proj_typo', 'wf_01JD2Q8X4B6V3C1N0M9K8J7H6G', 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G0']) {
        const refused = await api.get(`${list}?project_id=${malformed}`);
        expectError(refused, 422, 'validation_error');
        expect(refused.body.error.details).toEqual({
          field: 'project_id',
          issue: 'must be a project id (proj_ followed by 26 characters)',
        });
      }
      const none = await api.get(`${list}?project_id=proj_01JD2Q8X4B6V3C1N0M9K8J7H6G`);
      expect(none.status).toBe(200);
      expect(none.body.meta.total).toBe(0);
    },
  );

  it('422 validation_error: /security/findings?scan_id= that is not a scan id', async () => {
    const api = as((await newAccount()).live.key);
    const refused = await api.get('/security/findings?scan_id=scan_typo');
    expectError(refused, 422, 'validation_error');
    expect(refused.body.error.details).toEqual({ field: 'scan_id', issue: 'must be a scan id (scan_ followed by 26 characters)' });
    expect((await api.get('/security/findings?scan_id=scan_01JD2Q8X4B6V3C1N0M9K8J7H6G')).body.meta.total).toBe(0);
  });

  it("429 rate_limited with Retry-After and RateLimit once the key's shared bucket is spent", async () => {
    const { live } = await newAccount();
    // Another function instance spent this key's whole bucket (the test runtime: 20/s, burst 100),
    // and then some: its lease was taken 30 s ahead, so nothing comes back for that long.
    const elsewhere = dynamoTokenBucketStore(await runtimeTable(), { perSecond: 20, burst: 100 });
    expect((await elsewhere.lease(live.id, 100, Date.now() + 30_000, undefined)).granted).toBe(100);
    const limited = await as(live.key).get('/projects');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
    expect(limited.headers.get('ratelimit-policy')).toBe('"credential";q=100;w=5');
  });

  it('500 internal_error shows no internals', async () => {
    const { account, live } = await newAccount();
    // A corrupted collection counter makes the create transaction fail inside DynamoDB.
    const table = await runtimeTable();
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.counter(keys.projects({ accountId: account.id, mode: 'live' })),
        UpdateExpression: 'SET #count = :text',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':text': 'not a number' },
      }),
    );
    const answer = await as(live.key).post('/projects', { name: 'x', repository });
    expectError(answer, 500, 'internal_error');
    expect(answer.text).not.toMatch(/at |Exception|DynamoDB|Transaction|stack/i);
  });

  it('every answer carries X-Request-Id and CORS exposes it', async () => {
    const answer = await call('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
    const preflight = await call('OPTIONS', '/projects', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    for (const header of ['Authorization', 'X-API-Key', 'Idempotency-Key', 'Content-Type']) {
      expect(preflight.headers.get('access-control-allow-headers')).toContain(header);
    }
    // As API Gateway's CORS answers it in AWS: no function ran, so no request id (README, CORS).
    expect([preflight.text, preflight.headers.get('x-request-id')]).toEqual(['', null]);
  });
});
