import {
  advisorySourceFromEnvironment,
  AdvisorySourceConfigurationError,
} from '../../../../functions/adapters/security/osv/advisory-runtime';
import { osvApiSource } from '../../../../functions/adapters/security/osv/osv-api-source';
import { AdvisorySourceUnavailable, advisoryKey, type PackageQuery } from '../../../../functions/engines/scanners/dependencies/advisories';
import { tempDirs } from '../../workspace/temp-dir';
import { writeAdvisoryDirectory } from './fixtures';

const temp = tempDirs();
afterAll(() => temp.removeAll());

interface Call {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

interface BatchQuery {
  package: { ecosystem: string; name: string };
  version: string;
  page_token?: string;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake osv.dev: `vulnsOf` answers each query's ids (and a page token), records are served by id. */
const fakeOsv = (
  options: {
    vulnsOf?: (query: BatchQuery) => { ids: string[]; next?: string; modified?: string };
    record?: (id: string) => Response;
  } = {},
) => {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method: init?.method ?? 'GET', url, body, headers: (init?.headers ?? {}) as Record<string, string> });
    if (url.endsWith('/v1/querybatch')) {
      const queries = (body as { queries: BatchQuery[] }).queries;
      return json(200, {
        results: queries.map((query) => {
          const answer = options.vulnsOf?.(query) ?? { ids: [] };
          return {
            ...(answer.ids.length > 0
              ? { vulns: answer.ids.map((id) => ({ id, modified: answer.modified ?? '2024-01-01T00:00:00Z' })) }
              : {}),
            ...(answer.next ? { next_page_token: answer.next } : {}),
          };
        }),
      });
    }
    const id = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
    return options.record?.(id) ?? json(200, { id, summary: `summary of ${id}`, affected: [] });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
};

const lodash: PackageQuery = { ecosystem: 'npm', name: 'lodash', version: '4.17.20' };
const text: PackageQuery = { ecosystem: 'Go', name: 'golang.org/x/text', version: 'v0.3.7' };
const django: PackageQuery = { ecosystem: 'PyPI', name: 'Django', version: '3.2.18' };

describe('osvApiSource', () => {
  it('asks /v1/querybatch, then reads each vulnerability once', async () => {
    const osv = fakeOsv({
      vulnsOf: (query) => ({
        ids: query.package.name === 'lodash' ? ['GHSA-1', 'GHSA-2'] : query.package.name === 'Django' ? ['GHSA-2'] : [],
      }),
    });
    const source = osvApiSource({ fetch: osv.fetch, baseUrl: 'https://osv.example/' });
    const answer = await source.query([lodash, text, django, lodash]);

    const [batch, ...gets] = osv.calls;
    expect(batch).toMatchObject({
      method: 'POST',
      url: 'https://osv.example/v1/querybatch',
      body: {
        queries: [
          { package: { ecosystem: 'npm', name: 'lodash' }, version: '4.17.20' },
          { package: { ecosystem: 'Go', name: 'golang.org/x/text' }, version: '0.3.7' },
          { package: { ecosystem: 'PyPI', name: 'Django' }, version: '3.2.18' },
        ],
      },
    });
    expect(batch!.headers['content-type']).toBe('application/json');
    expect(gets.map((call) => `${call.method} ${call.url}`).sort()).toEqual([
      'GET https://osv.example/v1/vulns/GHSA-1',
      'GET https://osv.example/v1/vulns/GHSA-2',
    ]);
    expect(answer.get(advisoryKey(lodash))!.map((v) => v.id)).toEqual(['GHSA-1', 'GHSA-2']);
    expect(answer.get(advisoryKey(django))!.map((v) => [v.id, v.summary])).toEqual([['GHSA-2', 'summary of GHSA-2']]);
    expect(answer.has(advisoryKey(text))).toBe(false);
  });

  it('caches records across queries, and refetches one the batch says was modified', async () => {
    let modified = '2024-01-01T00:00:00Z';
    const osv = fakeOsv({ vulnsOf: () => ({ ids: ['GHSA-1'], modified }) });
    const source = osvApiSource({ fetch: osv.fetch });
    await source.query([lodash]);
    await source.query([lodash, django]);
    const gets = () => osv.calls.filter((call) => call.method === 'GET').length;
    expect(gets()).toBe(1);
    expect(osv.calls[0]!.url).toBe('https://api.osv.dev/v1/querybatch');
    modified = '2024-06-01T00:00:00Z';
    await source.query([lodash]);
    expect(gets()).toBe(2);
  });

  it('splits more than 1000 packages into batches of at most 1000, keeping each answer with its package', async () => {
    const packages: PackageQuery[] = Array.from({ length: 2500 }, (_, index) => ({
      ecosystem: 'npm',
      name: `pkg-${index}`,
      version: '1.0.0',
    }));
    const osv = fakeOsv({
      vulnsOf: (query) => ({
        ids: query.package.name === 'pkg-1999' || query.package.name === 'pkg-2400' ? [`V-${query.package.name}`] : [],
      }),
    });
    const answer = await osvApiSource({ fetch: osv.fetch }).query(packages);
    const batches = osv.calls.filter((call) => call.method === 'POST').map((call) => (call.body as { queries: unknown[] }).queries.length);
    expect(batches).toEqual([1000, 1000, 500]);
    expect([...answer.entries()].map(([key, list]) => [key, list.map((v) => v.id)])).toEqual([
      [advisoryKey(packages[1999]!), ['V-pkg-1999']],
      [advisoryKey(packages[2400]!), ['V-pkg-2400']],
    ]);
  });

  it('follows next_page_token for the queries that have more', async () => {
    const osv = fakeOsv({
      vulnsOf: (query) =>
        query.package.name !== 'lodash'
          ? { ids: [] }
          : query.page_token === 'p2'
            ? { ids: ['GHSA-3'] }
            : { ids: ['GHSA-1', 'GHSA-2'], next: 'p2' },
    });
    const answer = await osvApiSource({ fetch: osv.fetch }).query([django, lodash]);
    const posts = osv.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.body)).toEqual([
      {
        queries: [
          { package: { ecosystem: 'PyPI', name: 'Django' }, version: '3.2.18' },
          { package: { ecosystem: 'npm', name: 'lodash' }, version: '4.17.20' },
        ],
      },
      { queries: [{ package: { ecosystem: 'npm', name: 'lodash' }, version: '4.17.20', page_token: 'p2' }] },
    ]);
    expect(answer.get(advisoryKey(lodash))!.map((v) => v.id)).toEqual(['GHSA-1', 'GHSA-2', 'GHSA-3']);
  });

  it('retries a 5xx, then throws AdvisorySourceUnavailable', async () => {
    let attempts = 0;
    const fetch = (async () => {
      attempts += 1;
      return new Response('busy', { status: 503 });
    }) as typeof globalThis.fetch;
    const error = await osvApiSource({ fetch, retries: 2, retryDelayMs: 0 })
      .query([lodash])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdvisorySourceUnavailable);
    expect((error as Error).name).toBe('AdvisorySourceUnavailable');
    expect((error as Error).message).toMatch(/HTTP 503 \(after 3 attempts\)/);
    expect(attempts).toBe(3);
  });

  it('recovers when a retry succeeds', async () => {
    const osv = fakeOsv({ vulnsOf: () => ({ ids: ['GHSA-1'] }) });
    let failures = 1;
    const fetch = ((input: string | URL | Request, init?: RequestInit) =>
      failures-- > 0 ? Promise.resolve(new Response('', { status: 502 })) : osv.fetch(input, init)) as typeof globalThis.fetch;
    const answer = await osvApiSource({ fetch, retryDelayMs: 0 }).query([lodash]);
    expect(answer.get(advisoryKey(lodash))!.map((v) => v.id)).toEqual(['GHSA-1']);
  });

  it('treats network errors, timeouts and 429 as unavailable; other refusals as errors', async () => {
    const failing = (fetch: typeof globalThis.fetch) => osvApiSource({ fetch, retries: 0, timeoutMs: 20 }).query([lodash]);
    await expect(failing((async () => Promise.reject(new TypeError('fetch failed'))) as typeof globalThis.fetch)).rejects.toBeInstanceOf(
      AdvisorySourceUnavailable,
    );
    const hanging = ((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      )) as typeof globalThis.fetch;
    await expect(failing(hanging)).rejects.toThrow(/no answer within 20 ms/);
    await expect(failing((async () => new Response('', { status: 429 })) as typeof globalThis.fetch)).rejects.toBeInstanceOf(
      AdvisorySourceUnavailable,
    );
    const refused = await failing(
      (async () => new Response('{"code":3,"message":"Invalid ecosystem"}', { status: 400 })) as typeof globalThis.fetch,
    ).catch((e: unknown) => e);
    expect(refused).not.toBeInstanceOf(AdvisorySourceUnavailable);
    expect((refused as Error).message).toMatch(/HTTP 400.*Invalid ecosystem/);
  });

  it('reports a vulnerability the API no longer serves by its id, and skips withdrawn ones', async () => {
    const osv = fakeOsv({
      vulnsOf: () => ({ ids: ['GONE-1', 'WITHDRAWN-1'] }),
      record: (id) => (id === 'GONE-1' ? new Response('', { status: 404 }) : json(200, { id, withdrawn: '2024-01-01T00:00:00Z' })),
    });
    const answer = await osvApiSource({ fetch: osv.fetch }).query([lodash]);
    expect(answer.get(advisoryKey(lodash))).toEqual([{ id: 'GONE-1' }]);
  });

  it('does not call the API for no packages', async () => {
    const osv = fakeOsv();
    expect((await osvApiSource({ fetch: osv.fetch }).query([])).size).toBe(0);
    expect(osv.calls).toEqual([]);
  });
});

describe('advisorySourceFromEnvironment', () => {
  it('reads a directory when OSV_ADVISORY_DIR is set', async () => {
    const dir = await temp.make('osv-');
    await writeAdvisoryDirectory(dir);
    const osv = fakeOsv();
    const source = advisorySourceFromEnvironment({ OSV_ADVISORY_DIR: dir, OSV_API_URL: 'https://ignored.example' }, { fetch: osv.fetch });
    const answer = await source.query([lodash]);
    expect(answer.get(advisoryKey(lodash))!.map((v) => v.id)).toEqual(['GHSA-35jh-r3h4-6jhm']);
    expect(osv.calls).toEqual([]);
  });

  it('uses the OSV API at OSV_API_URL, by default https://api.osv.dev', async () => {
    const osv = fakeOsv();
    await advisorySourceFromEnvironment({ OSV_API_URL: 'http://localhost:8080/v1' }, { fetch: osv.fetch }).query([lodash]);
    await advisorySourceFromEnvironment({}, { fetch: osv.fetch }).query([lodash]);
    expect(osv.calls.map((call) => call.url)).toEqual(['http://localhost:8080/v1/querybatch', 'https://api.osv.dev/v1/querybatch']);
  });

  it.each([{ OSV_API_URL: 'not a url' }, { OSV_API_URL: 'ftp://osv.example' }, { OSV_API_TIMEOUT_MS: 'soon' }])('refuses %j', (env) => {
    expect(() => advisorySourceFromEnvironment(env)).toThrow(AdvisorySourceConfigurationError);
  });
});
