import { createHash } from 'node:crypto';

/**
 * Repeated failures slow sign-in down, per e-mail and per address, whether or not a user has the
 * e-mail (so the answer tells nothing about it). Counters live in the table (every function
 * instance sees the same ones) and reset `windowMs` after the last failure.
 */
export interface ThrottleCounter {
  failures: number;
  last_failure_at: number;
}

export interface SignInThrottleStore {
  /** The counters of these keys that are still within their window. */
  read(keys: string[], now: number): Promise<Map<string, ThrottleCounter>>;
  /** Counts one more failure (a fresh counter when the last one is older than the window). */
  recordFailure(key: string, now: number, windowMs: number): Promise<ThrottleCounter>;
  clear(key: string): Promise<void>;
}

export interface ThrottleRule {
  /** Failures allowed before any wait. */
  free: number;
  /** The wait after the first failure past `free`; it doubles with each further one. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const throttleWindowMs = 15 * 60_000;

export const throttleRules = {
  email: { free: 5, firstDelayMs: 2_000, maxDelayMs: 15 * 60_000 },
  address: { free: 20, firstDelayMs: 2_000, maxDelayMs: 15 * 60_000 },
  twoFactor: { free: 5, firstDelayMs: 2_000, maxDelayMs: 15 * 60_000 },
  resetEmail: { free: 3, firstDelayMs: 60_000, maxDelayMs: 15 * 60_000 },
} satisfies Record<string, ThrottleRule>;

const keyHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 32);

export const throttleKeys = {
  email: (email: string) => `email:${keyHash(email)}`,
  address: (ip: string) => `ip:${ip}`,
  twoFactor: (userId: string) => `2fa:${userId}`,
  resetEmail: (email: string) => `reset:${keyHash(email)}`,
};

/** Until when a key with this counter must wait (ms), or 0 when it need not. */
export const blockedUntil = (counter: ThrottleCounter | undefined, rule: ThrottleRule): number => {
  if (!counter || counter.failures < rule.free) return 0;
  const delay = Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (counter.failures - rule.free));
  return counter.last_failure_at + delay;
};

/** Seconds left to wait for the strictest of `checks`, or 0. */
export const secondsToWait = async (
  checks: { key: string; rule: ThrottleRule }[],
  store: SignInThrottleStore,
  now: number,
): Promise<number> => {
  const counters = await store.read(
    checks.map((c) => c.key),
    now,
  );
  const until = Math.max(0, ...checks.map((c) => blockedUntil(counters.get(c.key), c.rule)));
  return until > now ? Math.ceil((until - now) / 1000) : 0;
};
