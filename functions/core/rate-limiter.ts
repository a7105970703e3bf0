import type { Clock } from './clock';

/**
 * The per-credential rate limit, shared by every function instance (README, "Rate limit").
 *
 * The bucket of each credential lives in the table as a GCRA state (its theoretical arrival time,
 * `tat`): a token bucket of `burst` tokens refilled at `perSecond`. An instance does not spend a
 * write per request: it leases a small batch of tokens with one conditional update and spends
 * them locally, for at most `leaseMs`. Leased tokens are counted as used when leased, so the
 * instances together never admit more than the bucket grants; a lease left unspent is lost, which
 * can only make the limit stricter. The batch grows while a credential keeps an instance busy
 * (up to `maxLease`) and shrinks when tokens go unspent, so a steady stream of requests costs
 * about one write per batch.
 */
export interface RateLimitSettings {
  /** Sustained requests per second per credential. */
  perSecond: number;
  /** Requests a credential may make at once after being idle. */
  burst: number;
}

export interface RateDecisionInfo {
  /** What the `RateLimit-Policy` field announces: `burst` requests per `windowSeconds`. */
  policy: { quota: number; windowSeconds: number };
  /** Requests left (an estimate across instances: the bucket at the last lease plus this instance's lease). */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export type RateDecision = ({ allowed: true } & RateDecisionInfo) | ({ allowed: false; retryAfterSeconds: number } & RateDecisionInfo);

/**
 * A token bucket as GCRA: tokens are spent by moving the bucket's theoretical arrival time `tat`
 * forward. Times are whole microseconds, so that the store's conditions and this arithmetic agree
 * to the unit (no floating-point drift between a check and its condition).
 */
export interface Gcra {
  /** Microseconds one token takes to come back. */
  intervalUs: number;
  /** How far `tat` may run ahead of now: the whole bucket. */
  toleranceUs: number;
}

export const gcraOf = (settings: RateLimitSettings): Gcra => {
  const intervalUs = Math.max(1, Math.ceil(1_000_000 / settings.perSecond));
  return { intervalUs, toleranceUs: intervalUs * Math.max(1, Math.floor(settings.burst)) };
};

export const microsecondsOf = (ms: number): number => Math.round(ms * 1000);

/** Tokens in the bucket at `nowMs` (`tat` undefined: a bucket never used, full). */
export const tokensAt = (gcra: Gcra, tat: number | undefined, nowMs: number): number => {
  const now = microsecondsOf(nowMs);
  return Math.max(0, Math.floor((now + gcra.toleranceUs - Math.max(tat ?? now, now)) / gcra.intervalUs));
};

/** Milliseconds until one token is back. */
export const waitForOneMs = (gcra: Gcra, tat: number | undefined, nowMs: number): number => {
  const now = microsecondsOf(nowMs);
  return Math.max(0, Math.max(tat ?? now, now) + gcra.intervalUs - gcra.toleranceUs - now) / 1000;
};

/** The outcome of a lease: how many tokens were granted and the bucket's `tat` after it. */
export interface TokenLease {
  granted: number;
  /** Microseconds since the epoch. */
  tat: number | undefined;
}

/** Where the buckets live (the table in every deployment; memory in unit tests). */
export interface TokenBucketStore {
  /**
   * Takes up to `wanted` tokens (at least one, else none) from the bucket `bucketId` at `nowMs`.
   * `knownTat` is the state this instance saw last, a hint for which conditional update to try.
   * Throws when the store cannot answer (a throttled table): the limiter then fails open.
   */
  lease(bucketId: string, wanted: number, nowMs: number, knownTat: number | undefined): Promise<TokenLease>;
}

export type RateLimiter = (credentialId: string) => Promise<RateDecision>;

export interface RateLimiterOptions {
  /** How long a lease may be spent. Default 2 s. */
  leaseMs?: number;
  /** The largest batch leased at once. Default a fifth of the burst, between 1 and 25. */
  maxLease?: number;
  /** Told when the store failed and the request was let through (a logged metric). */
  onFailOpen?: (error: unknown) => void;
}

interface Lease {
  tokens: number;
  size: number;
  leasedAt: number;
  expiresAt: number;
  tat: number | undefined;
}

export const createRateLimiter = (
  settings: RateLimitSettings,
  clock: Clock,
  store: TokenBucketStore,
  options: RateLimiterOptions = {},
): RateLimiter => {
  const gcra = gcraOf(settings);
  const leaseMs = options.leaseMs ?? 2000;
  const maxLease = Math.max(1, Math.min(options.maxLease ?? Math.min(25, Math.floor(settings.burst / 5)), settings.burst));
  const policy = { quota: settings.burst, windowSeconds: Math.max(1, Math.round(settings.burst / settings.perSecond)) };
  const leases = new Map<string, Lease>();
  const inFlight = new Map<string, Promise<unknown>>();
  let sweptAt = clock.now();

  const info = (lease: Lease | undefined, nowMs: number): RateDecisionInfo => {
    const bucket = tokensAt(gcra, lease?.tat, nowMs);
    const local = lease && nowMs < lease.expiresAt ? Math.floor(lease.tokens) : 0;
    const untilFull = Math.max(0, (lease?.tat ?? microsecondsOf(nowMs)) - microsecondsOf(nowMs)) / 1000;
    return { policy, remaining: Math.min(settings.burst, bucket + local), resetSeconds: Math.ceil(untilFull / 1000) };
  };

  /** Doubles the batch when the last one ran out before it expired, halves it when half went unspent. */
  const nextSize = (previous: Lease | undefined, nowMs: number): number => {
    if (!previous) return 1;
    if (previous.tokens < 1 && nowMs < previous.expiresAt) return Math.min(maxLease, previous.size * 2);
    if (nowMs >= previous.expiresAt && previous.tokens > previous.size / 2) return Math.max(1, Math.floor(previous.size / 2));
    return previous.size;
  };

  const sweep = (nowMs: number): void => {
    if (nowMs - sweptAt < 60_000) return;
    sweptAt = nowMs;
    for (const [id, lease] of leases) if (nowMs - lease.expiresAt > gcra.toleranceUs / 1000) leases.delete(id);
  };

  const decide = async (credentialId: string): Promise<RateDecision> => {
    const nowMs = clock.now();
    sweep(nowMs);
    const current = leases.get(credentialId);
    if (current && current.tokens >= 1 && nowMs < current.expiresAt) {
      current.tokens -= 1;
      return { allowed: true, ...info(current, nowMs) };
    }
    const size = nextSize(current, nowMs);
    let leased: TokenLease;
    try {
      leased = await store.lease(credentialId, size, nowMs, current?.tat);
    } catch (error) {
      options.onFailOpen?.(error);
      return { allowed: true, ...info(current, nowMs) };
    }
    const lease: Lease = { tokens: leased.granted, size, leasedAt: nowMs, expiresAt: nowMs + leaseMs, tat: leased.tat };
    leases.set(credentialId, lease);
    if (lease.tokens < 1) {
      const retryAfterSeconds = Math.max(1, Math.ceil(waitForOneMs(gcra, lease.tat, nowMs) / 1000));
      return { allowed: false, retryAfterSeconds, ...info(lease, nowMs), remaining: 0 };
    }
    lease.tokens -= 1;
    return { allowed: true, ...info(lease, nowMs) };
  };

  // One lease at a time per credential in this instance (the local server serves many requests at once).
  return (credentialId) => {
    const previous = inFlight.get(credentialId) ?? Promise.resolve();
    const decision = previous.then(
      () => decide(credentialId),
      () => decide(credentialId),
    );
    const settled = decision.catch(() => undefined);
    inFlight.set(credentialId, settled);
    void settled.then(() => {
      if (inFlight.get(credentialId) === settled) inFlight.delete(credentialId);
    });
    return decision;
  };
};

/**
 * A bucket store in memory: one instance's view only. For unit tests, and as the reference the
 * table's conditional updates implement.
 */
export const inMemoryTokenBucketStore = (settings: RateLimitSettings): TokenBucketStore & { writes: number } => {
  const gcra = gcraOf(settings);
  const tats = new Map<string, number>();
  const store = {
    writes: 0,
    async lease(bucketId: string, wanted: number, nowMs: number): Promise<TokenLease> {
      const tat = tats.get(bucketId);
      const granted = Math.min(wanted, tokensAt(gcra, tat, nowMs));
      if (granted < 1) return { granted: 0, tat };
      store.writes += 1;
      const now = microsecondsOf(nowMs);
      const next = Math.max(tat ?? now, now) + granted * gcra.intervalUs;
      tats.set(bucketId, next);
      return { granted, tat: next };
    },
  };
  return store;
};

export const rateLimitSettingsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): RateLimitSettings => ({
  perSecond: Number(env.RATE_LIMIT_PER_SECOND) > 0 ? Number(env.RATE_LIMIT_PER_SECOND) : 50,
  burst: Number(env.RATE_LIMIT_BURST) > 0 ? Number(env.RATE_LIMIT_BURST) : 100,
});

/** `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-11) of a decision, and `Retry-After` on a refusal. */
export const rateLimitHeaders = (decision: RateDecision): Record<string, string> => ({
  'RateLimit-Policy': `"credential";q=${decision.policy.quota};w=${decision.policy.windowSeconds}`,
  RateLimit: `"credential";r=${Math.max(0, decision.remaining)};t=${decision.allowed ? decision.resetSeconds : decision.retryAfterSeconds}`,
  ...(decision.allowed ? {} : { 'Retry-After': String(decision.retryAfterSeconds) }),
});
