import { probe } from '../../../functions/adapters/deployments/http-probe';
import type { LookupAll } from '../../../functions/adapters/http/webhook-http-client';
import type { TargetPolicy } from '../../../functions/core/webhooks/target-policy';
import { answer, serverPool } from './local-server';

const live: TargetPolicy = { requireHttps: true, allowPrivate: false };
const local: TargetPolicy = { requireHttps: false, allowPrivate: true };
const start = serverPool();

const lookupFrom =
  (table: Record<string, string[]>): LookupAll =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };

describe('health probe', () => {
  it('connects to the checked address of a name, keeping the name as Host', async () => {
    const server = await start(answer(200));
    const result = await probe({
      url: `http://app.test:${server.port}/health?deep=1`,
      policy: local,
      lookup: lookupFrom({ 'app.test': ['127.0.0.1'] }),
    });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/health?deep=1', headers: { host: `app.test:${server.port}` } });
  });

  it('refuses a name when any of its addresses is not allowed, before connecting', async () => {
    const result = await probe({
      url: 'https://mixed.example/',
      policy: live,
      lookup: lookupFrom({ 'mixed.example': ['93.184.215.14', '10.0.0.1'] }),
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'refused_target',
      errorMessage: 'mixed.example resolves to a private address',
      statusCode: null,
    });
  });

  it('refuses the metadata address whatever the policy', async () => {
    expect(await probe({ url: 'http://169.254.169.254/latest/meta-data', policy: local })).toMatchObject({ error: 'refused_target' });
    expect(
      await probe({ url: 'http://meta.test/', policy: local, lookup: lookupFrom({ 'meta.test': ['169.254.169.254'] }) }),
    ).toMatchObject({ error: 'refused_target' });
  });

  it('fails on a name that does not resolve (unlike creation-time checks)', async () => {
    expect(await probe({ url: 'https://nowhere.example/', policy: live, lookup: lookupFrom({}) })).toMatchObject({
      ok: false,
      error: 'dns',
      errorMessage: expect.stringContaining('ENOTFOUND'),
    });
  });

  it('times out a slow resolver, and never connects to an answer that came too late', async () => {
    const server = await start(answer(200));
    const late: LookupAll = () => new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 300));
    const result = await probe({ url: `http://late.test:${server.port}/`, policy: local, lookup: late, timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, error: 'timeout', errorMessage: 'no response within 100 ms' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests).toHaveLength(0);
  });
});
