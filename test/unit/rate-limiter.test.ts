import { createRateLimiter, rateLimitSettingsFromEnvironment } from '../../functions/core/rate-limiter';
import { controlledClock } from './fakes/clock';

describe('rate limiter (token bucket per credential)', () => {
  it('allows a burst, then refuses with a Retry-After of at least one second', () => {
    const limiter = createRateLimiter({ perSecond: 2, burst: 3 }, controlledClock());
    expect([limiter('key_a'), limiter('key_a'), limiter('key_a')]).toEqual([
      { allowed: true, remaining: 2 },
      { allowed: true, remaining: 1 },
      { allowed: true, remaining: 0 },
    ]);
    const refused = limiter('key_a');
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
  });

  it('refills with time at the sustained rate', () => {
    const clock = controlledClock();
    const limiter = createRateLimiter({ perSecond: 2, burst: 2 }, clock);
    limiter('key_a');
    limiter('key_a');
    expect(limiter('key_a').allowed).toBe(false);
    clock.advance(499);
    expect(limiter('key_a').allowed).toBe(false);
    clock.advance(1);
    expect(limiter('key_a').allowed).toBe(true);
    expect(limiter('key_a').allowed).toBe(false);
  });

  it('asks a slow caller to wait as long as the next token takes', () => {
    const limiter = createRateLimiter({ perSecond: 0.2, burst: 1 }, controlledClock());
    limiter('key_a');
    expect(limiter('key_a')).toEqual({ allowed: false, retryAfterSeconds: 5 });
  });

  it('never holds more than the burst, however long the credential was idle', () => {
    const clock = controlledClock();
    const limiter = createRateLimiter({ perSecond: 10, burst: 5 }, clock);
    limiter('key_a');
    clock.advance(3_600_000);
    const decisions = Array.from({ length: 6 }, () => limiter('key_a').allowed);
    expect(decisions).toEqual([true, true, true, true, true, false]);
  });

  it('keeps separate buckets for separate credentials', () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1 }, controlledClock());
    expect(limiter('key_a').allowed).toBe(true);
    expect(limiter('key_a').allowed).toBe(false);
    expect(limiter('key_b').allowed).toBe(true);
    expect(limiter('key_a').allowed).toBe(false);
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
