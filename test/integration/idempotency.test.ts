import { request as httpRequest } from 'node:http';
import { dynamoIdempotencyStore } from '../../functions/adapters/dynamodb/idempotency-store';
import { idempotencyLockMs, requestFingerprint } from '../../functions/core/idempotency';
import type { Tenant } from '../../functions/core/tenancy';
import { type ApiAnswer, as } from './support/http';
import { apiUrl, newAccount, runtimeTable, type TestAccount } from './support/runtime';

/** `Idempotency-Key` on POST /projects (DESIGN.md): replay, reuse, scope, in-flight, validation answers. */

type Api = ReturnType<typeof as>;

let keyCounter = 0;
/** A key no other test uses (keys are per account and mode anyway). */
const newIdempotencyKey = (): string => `it-${Date.now()}-${++keyCounter}-${Math.random().toString(36).slice(2)}`;

const project = (name: string) => ({ name, repository: `https://github.com/acme/${name}`, description: `The ${name} service` });

const post = (api: Api, body: unknown, key?: string): Promise<ApiAnswer> =>
  api.post('/projects', body, key === undefined ? {} : { headers: { 'Idempotency-Key': key } });

const total = async (api: Api): Promise<number> => {
  const answer = await api.get('/projects');
  expect(answer.status).toBe(200);
  return answer.body.meta.total;
};

const projectIds = async (api: Api): Promise<string[]> => {
  const answer = await api.get('/projects?per_page=100');
  expect(answer.status).toBe(200);
  return answer.body.data.map((p: { id: string }) => p.id);
};

const liveTenant = (account: TestAccount): Tenant => ({ accountId: account.account.id, mode: 'live' });

const expectError = (answer: ApiAnswer, status: number, code: string): void => {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(answer.body.error.request_id).toBeTruthy();
};

/**
 * What the middleware fingerprints: the method, the raw path and the body as parsed from JSON
 * (the JSON body parser runs before it), so the same fields in any order are the same request.
 */
const fingerprintOf = (body: unknown): string => requestFingerprint('POST', '/v1/projects', body);

describe('Idempotency-Key on POST /projects', () => {
  it('the same key and body twice: the first answer replayed, one project only', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();
    const body = project('shop');

    const first = await post(api, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const second = await post(api, body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('x-request-id')).toBeTruthy();

    // Same fields in another order (another client's serialiser) are the same request.
    const reordered = await post(api, { description: body.description, repository: body.repository, name: body.name }, key);
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.data.id).toBe(first.body.data.id);

    expect(await projectIds(api)).toEqual([first.body.data.id]);
    expect(await total(api)).toBe(1);
  });

  it('the same key with a different body is refused with 422 idempotency_key_reused, and the first answer stays', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();

    const first = await post(api, project('shop'), key);
    expect(first.status).toBe(201);

    const reused = await post(api, project('blog'), key);
    expectError(reused, 422, 'idempotency_key_reused');
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    // One field more is a different request too.
    expectError(await post(api, { ...project('shop'), description: 'Other' }, key), 422, 'idempotency_key_reused');
    expectError(await post(api, { name: 'shop', repository: 'https://github.com/acme/shop' }, key), 422, 'idempotency_key_reused');

    // The original request still replays its own answer.
    const again = await post(api, project('shop'), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);

    expect(await total(api)).toBe(1);
  });

  it('keys are scoped to the account and the mode: the same key elsewhere creates its own project', async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const key = newIdempotencyKey();
    const body = project('shop');

    const live = await post(as(mine.live.key), body, key);
    expect(live.status).toBe(201);

    const otherAccount = await post(as(theirs.live.key), body, key);
    expect(otherAccount.status).toBe(201);
    expect(otherAccount.headers.get('idempotent-replayed')).toBeNull();
    expect(otherAccount.body.data.id).not.toBe(live.body.data.id);

    const testMode = await post(as(mine.test.key), body, key);
    expect(testMode.status).toBe(201);
    expect(testMode.headers.get('idempotent-replayed')).toBeNull();
    expect(testMode.body.data.id).not.toBe(live.body.data.id);
    expect(testMode.body.data.id).not.toBe(otherAccount.body.data.id);

    // Another body under the same key elsewhere is not a reuse either.
    const otherBody = await post(as(theirs.test.key), project('blog'), key);
    expect(otherBody.status).toBe(201);

    expect(await projectIds(as(mine.live.key))).toEqual([live.body.data.id]);
    expect(await projectIds(as(mine.test.key))).toEqual([testMode.body.data.id]);
    expect(await projectIds(as(theirs.live.key))).toEqual([otherAccount.body.data.id]);
    expect(await projectIds(as(theirs.test.key))).toEqual([otherBody.body.data.id]);

    // And each still replays within its own scope.
    const replay = await post(as(mine.test.key), body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(testMode.body.data.id);
  });

  it('a key still in flight answers 409 idempotency_key_in_use and creates nothing', async () => {
    const account = await newAccount();
    const api = as(account.live.key);
    const key = newIdempotencyKey();
    const body = project('shop');

    // The first request has claimed the key and not finished.
    const claimed = await dynamoIdempotencyStore(await runtimeTable()).claim(liveTenant(account), key, fingerprintOf(body), Date.now());
    expect(claimed).toBe('claimed');

    const answer = await post(api, body, key);
    expectError(answer, 409, 'idempotency_key_in_use');
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    // A different request under the in-flight key is a reuse.
    expectError(await post(api, project('blog'), key), 422, 'idempotency_key_reused');
    expect(await total(api)).toBe(0);

    // The same key is free in test mode.
    expect((await post(as(account.test.key), body, key)).status).toBe(201);
  });

  it('a claim abandoned by a crashed attempt (lock expired) lets the same request through once', async () => {
    const account = await newAccount();
    const api = as(account.live.key);
    const key = newIdempotencyKey();
    const body = project('shop');

    const longAgo = Date.now() - idempotencyLockMs - 5_000;
    expect(await dynamoIdempotencyStore(await runtimeTable()).claim(liveTenant(account), key, fingerprintOf(body), longAgo)).toBe(
      'claimed',
    );

    // Another request still may not take the abandoned key.
    expectError(await post(api, project('blog'), key), 422, 'idempotency_key_reused');

    const retried = await post(api, body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await post(api, body, key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data.id).toBe(retried.body.data.id);
    expect(await total(api)).toBe(1);
  });

  it('identical requests sent at once create exactly one project', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();
    const body = project('shop');

    const answers = await Promise.all(Array.from({ length: 6 }, () => post(api, body, key)));
    const outcomes = answers.map((a) =>
      a.status === 201
        ? a.headers.get('idempotent-replayed') === 'true'
          ? 'replayed'
          : 'created'
        : a.status === 409 && a.body?.error?.code === 'idempotency_key_in_use'
          ? 'in_use'
          : `${a.status} ${a.text}`,
    );
    for (const outcome of outcomes) expect(['created', 'replayed', 'in_use']).toContain(outcome);
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);

    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    expect(await projectIds(api)).toEqual([...ids]);

    // Once settled, the key replays that one project.
    const later = await post(api, body, key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(ids.has(later.body.data.id)).toBe(true);
  });

  it('two identical requests at once: each is 201 or 409 idempotency_key_in_use or a replayed 201; one project', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();
    const body = project('shop');

    const [a, b] = await Promise.all([post(api, body, key), post(api, body, key)]);
    for (const answer of [a, b]) {
      const fine =
        (answer.status === 201 && answer.body.data.name === 'shop') ||
        (answer.status === 409 && answer.body?.error?.code === 'idempotency_key_in_use');
      expect({ status: answer.status, fine }).toEqual({ status: answer.status, fine: true });
    }
    expect([a, b].filter((x) => x.status === 201 && x.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await total(api)).toBe(1);
  });

  it('a 422 validation answer is replayed for the same key and the same invalid body', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();
    const invalid = { name: '', repository: 'not a url' };

    const first = await post(api, invalid, key);
    expectError(first, 422, 'validation_error');
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const second = await post(api, invalid, key);
    expect(second.status).toBe(422);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await total(api)).toBe(0);
  });

  it('the same key with other query parameters is another request: refused with 422 idempotency_key_reused, never replayed', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const key = newIdempotencyKey();
    const withParameter = await api.post('/projects?x=1', project('shop'), { headers: { 'Idempotency-Key': key } });
    expect(withParameter.body.error.details).toMatchObject({ field: 'x' });

    // The corrected request is not answered with the stale refusal, and the other way round.
    expectError(await post(api, project('shop'), key), 422, 'idempotency_key_reused');
    const other = newIdempotencyKey();
    expect((await post(api, project('shop'), other)).status).toBe(201);
    expectError(await api.post('/projects?x=1', project('shop'), { headers: { 'Idempotency-Key': other } }), 422, 'idempotency_key_reused');
    expect(await total(api)).toBe(1);
  });

  it('an Idempotency-Key of 256 characters is refused with 422; 255 is accepted', async () => {
    const { live } = await newAccount();
    const api = as(live.key);

    const tooLong = await post(api, project('shop'), 'k'.repeat(256));
    expectError(tooLong, 422, 'validation_error');
    expect(tooLong.body.error.details.field).toBe('Idempotency-Key');
    expect(await total(api)).toBe(0);

    const longest = 'k'.repeat(255);
    const accepted = await post(api, project('shop'), longest);
    expect(accepted.status).toBe(201);
    const replayed = await post(api, project('shop'), longest);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data.id).toBe(accepted.body.data.id);
    expect(await total(api)).toBe(1);
  });

  it('an Idempotency-Key header given twice is refused with 422, and creates nothing', async () => {
    const { live } = await newAccount();
    const url = new URL(`${apiUrl()}/projects`);
    // Two header lines, as `curl -H … -H …` sends them (fetch would join them itself).
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${live.key}`,
            'content-type': 'application/json',
            'idempotency-key': [newIdempotencyKey(), newIdempotencyKey()],
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(project('shop')));
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatchObject({ code: 'validation_error', details: { field: 'Idempotency-Key' } });
    expect(await total(as(live.key))).toBe(0);
  });

  it('without the header every POST creates a new project', async () => {
    const { live } = await newAccount();
    const api = as(live.key);
    const body = project('shop');

    const answers = [await post(api, body), await post(api, body), await post(api, body)];
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    const ids = answers.map((a) => a.body.data.id);
    expect(new Set(ids).size).toBe(3);
    expect((await projectIds(api)).sort()).toEqual([...ids].sort());
    expect(await total(api)).toBe(3);
  });
});
