import {
  createRateLimiter,
  inMemoryTokenBucketStore,
  rateLimitHeaders,
  rateLimitSettingsFromEnvironment,
  type RateLimitSettings,
  type TokenBucketStore,
} from '../../functions/core/rate-limiter';
import { controlledClock } from './fakes/clock';

const limiterOf = (settings: RateLimitSettings, clock = controlledClock(), options = {}) => {
  const store = inMemoryTokenBucketStore(settings);
  return { limiter: createRateLimiter(settings, clock, store, options), store, clock };
};

const allowedOf = async (limiter: (id: string) => Promise<{ allowed: boolean }>, id: string, times: number): Promise<boolean[]> => {
  const decisions: boolean[] = [];
  for (let i = 0; i < times; i += 1) decisions.push((await limiter(id)).allowed);
  return decisions;
};

describe('rate limiter (a token bucket per credential, leased in batches)', () => {
  it('allows a burst, then refuses with a Retry-After of at least one second', async () => {
    const { limiter } = limiterOf({ perSecond: 2, burst: 3 });
    expect(await allowedOf(limiter, 'key_a', 3)).toEqual([true, true, true]);
    const refused = await limiter('key_a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
  });

  it('refills with time at the sustained rate', async () => {
    const { limiter, clock } = limiterOf({ perSecond: 2, burst: 2 });
    await allowedOf(limiter, 'key_a', 2);
    expect((await limiter('key_a')).allowed).toBe(false);
    clock.advance(499);
    expect((await limiter('key_a')).allowed).toBe(false);
    clock.advance(1);
    expect((await limiter('key_a')).allowed).toBe(true);
    expect((await limiter('key_a')).allowed).toBe(false);
  });

  it('asks a slow caller to wait as long as the next token takes', async () => {
    const { limiter } = limiterOf({ perSecond: 0.2, burst: 1 });
    await limiter('key_a');
    expect(await limiter('key_a')).toMatchObject({ allowed: false, retryAfterSeconds: 5 });
  });

  it('never holds more than the burst, however long the credential was idle', async () => {
    const { limiter, clock } = limiterOf({ perSecond: 10, burst: 5 });
    await limiter('key_a');
    clock.advance(3_600_000);
    expect(await allowedOf(limiter, 'key_a', 6)).toEqual([true, true, true, true, true, false]);
  });

  it('keeps separate buckets for separate credentials', async () => {
    const { limiter } = limiterOf({ perSecond: 1, burst: 1 });
    expect((await limiter('key_a')).allowed).toBe(true);
    expect((await limiter('key_a')).allowed).toBe(false);
    expect((await limiter('key_b')).allowed).toBe(true);
    expect((await limiter('key_a')).allowed).toBe(false);
  });

  it('spends one store write per batch: a steady stream costs at most 0.1 writes per request', async () => {
    const { limiter, store, clock } = limiterOf({ perSecond: 50, burst: 100 });
    let allowed = 0;
    // 40 requests a second for a minute: under the limit, so every one is let through.
    for (let i = 0; i < 2400; i += 1) {
      if ((await limiter('key_a')).allowed) allowed += 1;
      clock.advance(25);
    }
    expect(allowed).toBe(2400);
    expect(store.writes / 2400).toBeLessThanOrEqual(0.1);
  });

  it('several instances sharing one store admit no more than the bucket grants', async () => {
    const settings = { perSecond: 10, burst: 20 };
    const clock = controlledClock();
    const store = inMemoryTokenBucketStore(settings);
    const instances = Array.from({ length: 5 }, () => createRateLimiter(settings, clock, store));
    let allowed = 0;
    // 10 seconds of 100 requests a second spread over the instances.
    for (let i = 0; i < 1000; i += 1) {
      if ((await (instances[i % 5] as (typeof instances)[number])('key_a')).allowed) allowed += 1;
      clock.advance(10);
    }
    // The burst plus 10 seconds at 10 a second, at most.
    expect(allowed).toBeLessThanOrEqual(20 + 100);
    expect(allowed).toBeGreaterThanOrEqual(60);
  });

  it('fails open when the store cannot answer, and says so', async () => {
    const failures: unknown[] = [];
    const throttled: TokenBucketStore = {
      lease: async () => {
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
          name: 'ProvisionedThroughputExceededException',
        });
      },
    };
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 }, controlledClock(), throttled, {
      onFailOpen: (error) => failures.push(error),
    });
    expect(await allowedOf(limiter, 'key_a', 3)).toEqual([true, true, true]);
    expect(failures).toHaveLength(3);
  });

  it('reads its settings from the environment, with defaults for missing or invalid values', () => {
    expect(rateLimitSettingsFromEnvironment({})).toEqual({ perSecond: 50, burst: 100 });
    expect(rateLimitSettingsFromEnvironment({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' })).toEqual({ perSecond: 5, burst: 10 });
    expect(rateLimitSettingsFromEnvironment({ RATE_LIMIT_PER_SECOND: 'fast', RATE_LIMIT_BURST: '-1' })).toEqual({
      perSecond: 50,
      burst: 100,
    });
  });
});

describe('RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('announces the policy as quota per window, and what is left with the seconds until it is back', async () => {
    const { limiter } = limiterOf({ perSecond: 50, burst: 100 });
    const first = await limiter('key_a');
    expect(rateLimitHeaders(first)).toEqual({ 'RateLimit-Policy': '"credential";q=100;w=2', RateLimit: '"credential";r=99;t=1' });
  });

  it('adds Retry-After to a refusal and reports nothing left', async () => {
    const { limiter } = limiterOf({ perSecond: 0.5, burst: 1 });
    await limiter('key_a');
    expect(rateLimitHeaders(await limiter('key_a'))).toEqual({
      'RateLimit-Policy': '"credential";q=1;w=2',
      RateLimit: '"credential";r=0;t=2',
      'Retry-After': '2',
    });
  });
});
