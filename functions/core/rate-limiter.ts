import type { Clock } from './clock';

export interface RateLimitSettings {
  /** Sustained requests per second per credential. */
  perSecond: number;
  /** Requests a credential may make at once after being idle. */
  burst: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/** A token bucket per credential; buckets idle long enough to be full again are forgotten. */
export const createRateLimiter = (settings: RateLimitSettings, clock: Clock) => {
  const buckets = new Map<string, Bucket>();
  const fullAfterMs = (settings.burst / settings.perSecond) * 1000;
  let sweptAt = clock.now();

  const sweep = (now: number): void => {
    if (now - sweptAt < fullAfterMs) return;
    sweptAt = now;
    for (const [id, bucket] of buckets) if (now - bucket.refilledAt >= fullAfterMs) buckets.delete(id);
  };

  return (credentialId: string): RateDecision => {
    const now = clock.now();
    sweep(now);
    const bucket = buckets.get(credentialId) ?? { tokens: settings.burst, refilledAt: now };
    bucket.tokens = Math.min(settings.burst, bucket.tokens + ((now - bucket.refilledAt) / 1000) * settings.perSecond);
    bucket.refilledAt = now;
    buckets.set(credentialId, bucket);
    if (bucket.tokens < 1) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / settings.perSecond)) };
    }
    bucket.tokens -= 1;
    return { allowed: true, remaining: Math.floor(bucket.tokens) };
  };
};

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export const rateLimitSettingsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): RateLimitSettings => ({
  perSecond: Number(env.RATE_LIMIT_PER_SECOND) > 0 ? Number(env.RATE_LIMIT_PER_SECOND) : 50,
  burst: Number(env.RATE_LIMIT_BURST) > 0 ? Number(env.RATE_LIMIT_BURST) : 100,
});
