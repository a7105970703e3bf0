import { performance } from 'node:perf_hooks';
import {
  deployHookProvider,
  deployHookUserAgent,
  type DeployHookConfig,
} from '../../../functions/adapters/deployments/deploy-hook-provider';
import { assessTarget, type LookupAll } from '../../../functions/adapters/http/webhook-http-client';
import {
  DeploymentProviderError,
  type DeploymentTarget,
  DeploymentTransientError,
  healthSchedule,
} from '../../../functions/core/deployments/providers/provider';
import type { Mode } from '../../../functions/core/tenancy';
import { verifyWebhookSignature } from '../../../functions/core/webhooks/signature';
import type { TargetPolicy } from '../../../functions/core/webhooks/target-policy';
import { controlledClock } from '../fakes/clock';
import { answer, closedPort, hang, rejectionOf, serverPool } from './local-server';

/** As the local runtime: test mode may reach private addresses, live mode never. */
const policyFor = (mode: Mode): TargetPolicy =>
  mode === 'live' ? { requireHttps: true, allowPrivate: false } : { requireHttps: false, allowPrivate: true };
const lookup: LookupAll = async (hostname) => {
  const table: Record<string, string[]> = { 'internal.example': ['10.1.2.3'], 'deploy.example': ['93.184.215.14'] };
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 as const }));
};

const clock = controlledClock();
const nowSeconds = Math.floor(clock.now() / 1000);
const secret = 'whsec_0123456789abcdef1a2b';
const provider = deployHookProvider({
  policyFor,
  clock,
  assessTarget: (url, policy) => assessTarget(url, policy, lookup),
  hookTimeoutMs: 2_000,
  probeTimeoutMs: 300,
});
const start = serverPool();

const target = (overrides: Partial<DeploymentTarget> = {}): DeploymentTarget => ({
  deployment_id: 'dep_01JDEPLOY',
  project: { id: 'prj_01JPROJECT', name: 'Shop', repository: 'https://github.com/acme/shop' },
  environment: 'staging',
  branch: 'main',
  mode: 'test',
  artifact: { workflow_id: 'wf_01JWORKFLOW', bundle: { location: 's3://bundles/wf_01JWORKFLOW.tar', sha256: 'ab'.repeat(32), size: 2048 } },
  ...overrides,
});

const config = (overrides: Partial<DeployHookConfig> = {}): DeployHookConfig => ({
  hook_url: 'http://127.0.0.1:1/deploy',
  health_url: 'http://127.0.0.1:1/health',
  secret,
  expected_status: null,
  health_timeout_seconds: 120,
  health_interval_seconds: 5,
  ...overrides,
});

const parsed = async (input: Record<string, unknown>, mode: Mode = 'test') => provider.parseConfig(input, { mode });

describe('deploy-hook: deploy', () => {
  it('POSTs a signed deployment.requested payload and takes url and version from the answer', async () => {
    const hook = await start(
      answer(200, JSON.stringify({ url: 'https://staging.shop.example/', version: 'v42' }), { 'Content-Type': 'application/json' }),
    );
    const outcome = await provider.deploy(target(), config({ hook_url: `${hook.url}/deploy?src=svc` }));

    expect(outcome).toEqual({ url: 'https://staging.shop.example/', version: 'v42', details: { hook_status: 200 } });
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/deploy?src=svc');
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': deployHookUserAgent,
      'x-service-deployment-id': 'dep_01JDEPLOY',
    });
    const body = request?.body ?? '';
    expect(verifyWebhookSignature(body, request?.headers['x-service-signature'] as string, secret, { nowSeconds })).toBe(true);
    expect(
      verifyWebhookSignature(body, request?.headers['x-service-signature'] as string, 'whsec_another-secret-000', { nowSeconds }),
    ).toBe(false);
    expect(request?.headers['x-service-signature']).toMatch(new RegExp(`^t=${nowSeconds},v1=[0-9a-f]{64}$`));
    expect(JSON.parse(body)).toEqual({
      type: 'deployment.requested',
      deployment_id: 'dep_01JDEPLOY',
      project: { id: 'prj_01JPROJECT', name: 'Shop', repository: 'https://github.com/acme/shop' },
      environment: 'staging',
      branch: 'main',
      artifact: {
        workflow_id: 'wf_01JWORKFLOW',
        bundle: { location: 's3://bundles/wf_01JWORKFLOW.tar', sha256: 'ab'.repeat(32), size: 2048 },
      },
    });
  });

  it('falls back to no url and the deployment id as version when the answer does not say', async () => {
    const plain = await start(answer(202, 'accepted'));
    expect(await provider.deploy(target({ artifact: null }), config({ hook_url: plain.url }))).toEqual({
      url: null,
      version: 'dep_01JDEPLOY',
      details: { hook_status: 202 },
    });
    expect(JSON.parse(plain.requests[0]?.body ?? '{}')).toMatchObject({ artifact: null });

    const odd = await start(answer(200, JSON.stringify({ url: 'javascript:alert(1)', version: '' })));
    expect(await provider.deploy(target(), config({ hook_url: odd.url }))).toMatchObject({ url: null, version: 'dep_01JDEPLOY' });
  });

  it('keeps an http answer url in test mode only', async () => {
    const hook = await start(answer(200, JSON.stringify({ url: 'http://preview.local:3000/', version: 7 })));
    expect(await provider.deploy(target(), config({ hook_url: hook.url }))).toMatchObject({
      url: 'http://preview.local:3000/',
      version: '7',
    });
  });

  it('drops an http answer url in live mode', async () => {
    const send = async () => ({
      ok: true,
      statusCode: 200,
      durationMs: 5,
      error: null,
      errorMessage: null,
      responseExcerpt: JSON.stringify({ url: 'http://shop.example/', version: 'v1' }),
    });
    const live = deployHookProvider({ policyFor, clock, send });
    expect(await live.deploy(target({ mode: 'live' }), config({ hook_url: 'https://deploy.example/hook' }))).toEqual({
      url: null,
      version: 'v1',
      details: { hook_status: 200 },
    });
  });

  it('reports a 500 as a DeploymentProviderError', async () => {
    const hook = await start(answer(500, 'boom'));
    const failure = await rejectionOf(provider.deploy(target(), config({ hook_url: hook.url })));
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toBe('deploy hook answered 500');
  });

  it.each([400, 404, 302])('reports a %i as a DeploymentProviderError', async (status) => {
    const hook = await start(answer(status, '', status === 302 ? { Location: 'http://127.0.0.1/elsewhere' } : {}));
    expect(await rejectionOf(provider.deploy(target(), config({ hook_url: hook.url })))).toBeInstanceOf(DeploymentProviderError);
  });

  it.each([503, 429])('reports a %i as a DeploymentTransientError', async (status) => {
    const hook = await start(answer(status, '', { 'Retry-After': '3' }));
    const failure = await rejectionOf(provider.deploy(target(), config({ hook_url: hook.url })));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(failure.message).toBe(`deploy hook answered ${status}`);
  });

  it('reports a refused connection as a transient connection failure', async () => {
    const port = await closedPort();
    const failure = await rejectionOf(provider.deploy(target(), config({ hook_url: `http://127.0.0.1:${port}/` })));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(failure.message).toMatch(/^deploy hook failed \(connection\): .*ECONNREFUSED/);
  });

  it('reports a hook that does not answer in time as a transient timeout', async () => {
    const hook = await start(hang);
    const quick = deployHookProvider({ policyFor, clock, hookTimeoutMs: 200 });
    const failure = await rejectionOf(quick.deploy(target(), config({ hook_url: hook.url })));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(failure.message).toBe('deploy hook failed (timeout): no response within 200 ms');
  });

  it('refuses a private target of a live deployment, before any connection', async () => {
    const hook = await start(answer(200));
    const failure = await rejectionOf(provider.deploy(target({ mode: 'live' }), config({ hook_url: hook.url.replace('http:', 'https:') })));
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toBe('deploy hook target refused: target is a loopback address');
    expect(hook.requests).toHaveLength(0);
  });
});

describe('deploy-hook: checkHealth', () => {
  const deployed = { url: null, version: 'v42', details: {} };

  it('is healthy on a 2xx, probing with GET', async () => {
    const health = await start(answer(200, 'ok'));
    const outcome = await provider.checkHealth(target(), config({ health_url: `${health.url}/healthz` }), deployed);
    expect(outcome).toEqual({
      healthy: true,
      checked_at: new Date(clock.now()).toISOString(),
      status_code: 200,
      latency_ms: expect.any(Number),
      message: 'health check answered 200',
    });
    expect(health.requests[0]).toMatchObject({
      method: 'GET',
      url: '/healthz',
      body: '',
      headers: { 'user-agent': deployHookUserAgent, 'x-service-deployment-id': 'dep_01JDEPLOY' },
    });
  });

  it('is unhealthy on a 500, saying so', async () => {
    const health = await start(answer(500, 'down'));
    expect(await provider.checkHealth(target(), config({ health_url: health.url }), deployed)).toMatchObject({
      healthy: false,
      status_code: 500,
      message: 'health check answered 500, expected 2xx',
    });
  });

  it('honours expected_status, redirects included (never followed)', async () => {
    const health = await start(answer(204));
    expect(await provider.checkHealth(target(), config({ health_url: health.url, expected_status: 200 }), deployed)).toMatchObject({
      healthy: false,
      status_code: 204,
      message: 'health check answered 204, expected 200',
    });
    const moved = await start(answer(301, '', { Location: 'http://169.254.169.254/' }));
    expect(await provider.checkHealth(target(), config({ health_url: moved.url, expected_status: 301 }), deployed)).toMatchObject({
      healthy: true,
      status_code: 301,
    });
    expect(await provider.checkHealth(target(), config({ health_url: moved.url }), deployed)).toMatchObject({
      healthy: false,
      status_code: 301,
    });
    expect(moved.requests).toHaveLength(2);
  });

  it('is unhealthy (timeout) when the endpoint hangs, within the probe timeout', async () => {
    const health = await start(hang);
    const started = performance.now();
    const outcome = await provider.checkHealth(target(), config({ health_url: health.url }), deployed);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(outcome).toMatchObject({
      healthy: false,
      status_code: null,
      message: 'health check failed (timeout): no response within 300 ms',
    });
  });

  it('is unhealthy when nothing listens', async () => {
    const port = await closedPort();
    const outcome = await provider.checkHealth(target(), config({ health_url: `http://127.0.0.1:${port}/` }), deployed);
    expect(outcome).toMatchObject({
      healthy: false,
      status_code: null,
      message: expect.stringMatching(/^health check failed \(connection\)/),
    });
  });

  it('throws a DeploymentProviderError for a refused target', async () => {
    const health = await start(answer(200));
    const failure = await rejectionOf(
      provider.checkHealth(target({ mode: 'live' }), config({ health_url: `https://127.0.0.1:${health.port}/` }), deployed),
    );
    expect(failure).toBeInstanceOf(DeploymentProviderError);
    expect(failure.message).toBe('health check target refused: target is a loopback address');
    expect(health.requests).toHaveLength(0);
  });
});

describe('deploy-hook: rollback', () => {
  const current = {
    target: target({ deployment_id: 'dep_02JCURRENT' }),
    deployed: { url: 'https://new.shop.example/', version: 'v43', details: {} },
  };
  const previous = {
    target: target({ deployment_id: 'dep_01JPREVIOUS', branch: 'release', artifact: null }),
    deployed: { url: 'https://old.shop.example/', version: 'v42', details: { hook_status: 200 } },
  };

  it('POSTs a signed deployment.rollback payload and describes the previous deployment', async () => {
    const hook = await start(answer(200, '{}'));
    const outcome = await provider.rollback({ current, previous }, config({ hook_url: hook.url }));

    expect(outcome).toEqual({
      url: 'https://old.shop.example/',
      version: 'v42',
      details: { hook_status: 200, rolled_back_from: 'dep_02JCURRENT' },
    });
    const [request] = hook.requests;
    expect(request?.headers['x-service-deployment-id']).toBe('dep_02JCURRENT');
    expect(verifyWebhookSignature(request?.body ?? '', request?.headers['x-service-signature'] as string, secret, { nowSeconds })).toBe(
      true,
    );
    expect(JSON.parse(request?.body ?? '{}')).toEqual({
      type: 'deployment.rollback',
      deployment_id: 'dep_02JCURRENT',
      rollback_to: 'dep_01JPREVIOUS',
      version: 'v42',
      url: 'https://old.shop.example/',
      project: { id: 'prj_01JPROJECT', name: 'Shop', repository: 'https://github.com/acme/shop' },
      environment: 'staging',
      branch: 'release',
      artifact: null,
    });
  });

  it('takes url and version from the answer when given, and fails like deploy', async () => {
    const hook = await start(answer(200, JSON.stringify({ url: 'https://rolled.shop.example/', version: 'v42-r1' })));
    expect(await provider.rollback({ current, previous }, config({ hook_url: hook.url }))).toMatchObject({
      url: 'https://rolled.shop.example/',
      version: 'v42-r1',
    });

    const failing = await start(answer(503));
    const failure = await rejectionOf(provider.rollback({ current, previous }, config({ hook_url: failing.url })));
    expect(failure).toBeInstanceOf(DeploymentTransientError);
    expect(failure.message).toBe('rollback hook answered 503');
  });
});

describe('deploy-hook: parseConfig and redactConfig', () => {
  const valid = { hook_url: 'https://deploy.example/hooks/deploy', health_url: 'https://deploy.example/healthz', secret };

  it('applies the defaults, ignores the common fields, and parses its own output unchanged', async () => {
    const result = await parsed({ ...valid, branch: 'main', auto_rollback: false }, 'live');
    expect(result).toEqual({
      ok: true,
      config: { ...valid, expected_status: null, health_timeout_seconds: 120, health_interval_seconds: 5 },
    });
    if (!result.ok) throw new Error('unreachable');
    expect(await parsed({ ...result.config }, 'live')).toEqual(result);
    expect(healthSchedule(result.config)).toEqual({ timeoutSeconds: 120, intervalSeconds: 5 });

    const tuned = await parsed({ ...valid, expected_status: 204, health_timeout_seconds: 900, health_interval_seconds: 60 }, 'live');
    expect(tuned).toMatchObject({ ok: true, config: { expected_status: 204, health_timeout_seconds: 900, health_interval_seconds: 60 } });
  });

  it('accepts http and loopback targets in test mode (local runtime policy)', async () => {
    expect(await parsed({ ...valid, hook_url: 'http://127.0.0.1:8080/deploy', health_url: 'http://localhost:8080/health' })).toMatchObject({
      ok: true,
    });
  });

  it.each<[string, Record<string, unknown>, Mode, { field: string; issue: string }[]]>([
    ['a missing hook_url', { health_url: valid.health_url, secret }, 'live', [{ field: 'config.hook_url', issue: 'is required' }]],
    [
      'an http URL in live mode',
      { ...valid, hook_url: 'http://deploy.example/hook' },
      'live',
      [{ field: 'config.hook_url', issue: 'must use https in live mode' }],
    ],
    [
      'a private address in live mode',
      { ...valid, hook_url: 'https://10.0.0.5/hook' },
      'live',
      [{ field: 'config.hook_url', issue: 'target is a private address' }],
    ],
    [
      'a name resolving to a private address',
      { ...valid, health_url: 'https://internal.example/health' },
      'live',
      [{ field: 'config.health_url', issue: 'internal.example resolves to a private address' }],
    ],
    [
      'loopback in live mode',
      { ...valid, health_url: 'https://localhost/health' },
      'live',
      [{ field: 'config.health_url', issue: 'target is a loopback address' }],
    ],
    [
      'the metadata address even in test mode',
      { ...valid, hook_url: 'http://169.254.169.254/latest' },
      'test',
      [{ field: 'config.hook_url', issue: 'target is a cloud metadata address' }],
    ],
    ['a secret too short', { ...valid, secret: 'short' }, 'live', [{ field: 'config.secret', issue: 'must be 16 to 256 characters long' }]],
    [
      'a secret that is not a string',
      { ...valid, secret: 1234567890123456 },
      'live',
      [{ field: 'config.secret', issue: 'must be a string' }],
    ],
    ['an unknown field', { ...valid, token: 'x' }, 'live', [{ field: 'config.token', issue: 'is not a known field' }]],
    [
      'a timeout out of range',
      { ...valid, health_timeout_seconds: 5 },
      'live',
      [{ field: 'config.health_timeout_seconds', issue: 'must be an integer between 10 and 900' }],
    ],
    [
      'an interval longer than the timeout',
      { ...valid, health_timeout_seconds: 30, health_interval_seconds: 45 },
      'live',
      [{ field: 'config.health_interval_seconds', issue: 'must not exceed health_timeout_seconds' }],
    ],
    [
      'a bad expected_status',
      { ...valid, expected_status: '200' },
      'live',
      [{ field: 'config.expected_status', issue: 'must be an integer between 200 and 599' }],
    ],
  ])('refuses %s', async (_, input, mode, issues) => {
    expect(await parsed(input, mode)).toEqual({ ok: false, issues });
  });

  it('names every problem at once', async () => {
    const result = await parsed({ secret: 'short', extra: true }, 'live');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.field).sort()).toEqual([
      'config.extra',
      'config.health_url',
      'config.hook_url',
      'config.secret',
    ]);
  });

  it('refuses a config that is not an object', async () => {
    expect(await provider.parseConfig([] as unknown as Record<string, unknown>, { mode: 'live' })).toEqual({
      ok: false,
      issues: [{ field: 'config', issue: 'must be a JSON object' }],
    });
  });

  it('never shows the secret', () => {
    const shown = provider.redactConfig(config());
    expect(shown).toEqual({ ...config(), secret: 'set' });
    expect(JSON.stringify(shown)).not.toContain(secret);
    expect(JSON.stringify(shown)).not.toContain(secret.slice(-4));
  });
});
