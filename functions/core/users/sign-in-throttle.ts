import { createHash, randomUUID } from 'node:crypto';

/**
 * Repeated failures slow sign-in down, per e-mail and per address, whether or not a user has the
 * e-mail (so the answer tells nothing about it). Counters live in the table (every function
 * instance sees the same ones) and reset `windowMs` after the last failure.
 *
 * An attempt is counted before the password or code is checked, by a conditional write that is
 * refused while a key must wait (`reserveAttempt`): requests sent at once get no more checks than
 * the same requests sent one after another. A failure then moves the wait's start to the answer
 * (`attemptFailed`); a success clears the key it proved, or gives the attempt back (`attemptSucceeded`).
 */
export interface ThrottleCounter {
  /** Attempts counted within the window: failures, and attempts still being checked. */
  failures: number;
  /** Where the wait counts from: the last failure's answer (or a counted attempt's start, until it is answered). */
  last_failure_at: number;
  /** A new random value on every write; a write names the one it read (optimistic concurrency). */
  revision: string;
}

/** One conditional write of `writeCounters`: the counter as read (or none), and what replaces it (or none). */
export interface ThrottleWrite {
  key: string;
  /** The revision read; undefined when no counter was stored. */
  expected: string | undefined;
  /** The new counter, or undefined to delete it. */
  next: ThrottleCounter | undefined;
}

export interface SignInThrottleStore {
  /** The stored counters of these keys, whatever their age (the caller applies the window). */
  read(keys: string[]): Promise<Map<string, ThrottleCounter>>;
  /**
   * All of `writes` or none, atomically: each only while the key is still at the revision it read
   * (none stored, when `expected` is undefined). False, having written nothing, when any has moved.
   */
  writeCounters(writes: ThrottleWrite[], windowMs: number): Promise<boolean>;
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
export const blockedUntil = (counter: Pick<ThrottleCounter, 'failures' | 'last_failure_at'> | undefined, rule: ThrottleRule): number => {
  if (!counter || counter.failures < rule.free) return 0;
  const delay = Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (counter.failures - rule.free));
  return counter.last_failure_at + delay;
};

/** The counter while its window lasts; an older one counts for nothing (TTL removes it later). */
const withinWindow = (counter: ThrottleCounter | undefined, now: number, windowMs: number): ThrottleCounter | undefined =>
  counter && counter.last_failure_at + windowMs > now ? counter : undefined;

export interface ThrottleCheck {
  key: string;
  rule: ThrottleRule;
}

/** An attempt counted against these keys; `revisions` are what the counting wrote. */
export interface Reservation {
  keys: string[];
  startedAt: number;
  /** Per key: the counter before the attempt (undefined: none), and the revision the attempt wrote. */
  before: Map<string, { counter: ThrottleCounter | undefined; revision: string }>;
}

export type ReservationResult = { reserved: true; reservation: Reservation } | { reserved: false; retryAfterSeconds: number };

/** How often a write that lost a race is tried again before the attempt is refused. */
const maxRounds = 20;
const pause = (round: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** round)));

/** Reads, decides, writes conditionally; again from the start while another writer got there first. */
const retrying = async <T>(
  store: SignInThrottleStore,
  keys: string[],
  round: (counters: Map<string, ThrottleCounter>) => Promise<T | 'moved'>,
): Promise<T | undefined> => {
  for (let attempt = 0; attempt < maxRounds; attempt += 1) {
    const outcome = await round(await store.read(keys));
    if (outcome !== 'moved') return outcome;
    await pause(attempt);
  }
  return undefined;
};

const secondsUntil = (until: number, now: number): number => Math.max(1, Math.ceil((until - now) / 1000));

/**
 * Counts one attempt against every key of `checks` at once, before anything is checked; refused,
 * counting nothing, while any of them must wait (the strictest wait is returned). Refused too when
 * the keys keep changing under it (a flood of attempts at once): each round is a fair race, and
 * a flood gets nothing it would not get one attempt at a time.
 */
export const reserveAttempt = async (
  checks: ThrottleCheck[],
  store: SignInThrottleStore,
  now: number,
  windowMs = throttleWindowMs,
): Promise<ReservationResult> => {
  const keys = checks.map((c) => c.key);
  const result = await retrying(store, keys, async (stored): Promise<ReservationResult | 'moved'> => {
    const until = Math.max(0, ...checks.map((c) => blockedUntil(withinWindow(stored.get(c.key), now, windowMs), c.rule)));
    if (until > now) return { reserved: false, retryAfterSeconds: secondsUntil(until, now) };
    const before: Reservation['before'] = new Map();
    const writes = checks.map(({ key }): ThrottleWrite => {
      const counter = withinWindow(stored.get(key), now, windowMs);
      const next = { failures: (counter?.failures ?? 0) + 1, last_failure_at: now, revision: randomUUID() };
      before.set(key, { counter, revision: next.revision });
      return { key, expected: stored.get(key)?.revision, next };
    });
    return (await store.writeCounters(writes, windowMs)) ? { reserved: true, reservation: { keys, startedAt: now, before } } : 'moved';
  });
  return result ?? { reserved: false, retryAfterSeconds: 1 };
};

/**
 * The attempt failed: its wait counts from the answer (`at`), not from the start of the (slow on
 * purpose) check. A counter cleared meanwhile (a success) stays cleared.
 */
export const attemptFailed = async (
  reservation: Reservation,
  store: SignInThrottleStore,
  at: number,
  windowMs = throttleWindowMs,
): Promise<void> => {
  for (const key of reservation.keys) {
    await retrying(store, [key], async (stored) => {
      const counter = stored.get(key);
      if (!counter || counter.last_failure_at >= at || counter.last_failure_at + windowMs <= reservation.startedAt) return true;
      const next = { ...counter, last_failure_at: at, revision: randomUUID() };
      return (await store.writeCounters([{ key, expected: counter.revision, next }], windowMs)) ? true : 'moved';
    });
  }
};

/**
 * The attempt succeeded: `cleared` keys start again from nothing (what the success proved), and
 * the attempt is given back on the others. When nothing else touched a counter since, it is put
 * back exactly as it was; otherwise it counts one attempt less (and keeps its later wait start),
 * or, when it no longer holds more than one, is left as it is: never fewer than others counted.
 */
export const attemptSucceeded = async (
  reservation: Reservation,
  cleared: string[],
  store: SignInThrottleStore,
  windowMs = throttleWindowMs,
): Promise<void> => {
  for (const key of cleared) await store.clear(key);
  for (const key of reservation.keys.filter((k) => !cleared.includes(k))) {
    const mine = reservation.before.get(key);
    if (!mine) continue;
    await retrying(store, [key], async (stored) => {
      const counter = stored.get(key);
      if (!counter || counter.last_failure_at + windowMs <= reservation.startedAt) return true;
      if (counter.revision !== mine.revision && counter.failures <= 1) return true;
      const next: ThrottleCounter | undefined =
        counter.revision === mine.revision
          ? mine.counter && { ...mine.counter, revision: randomUUID() }
          : { ...counter, failures: counter.failures - 1, revision: randomUUID() };
      return (await store.writeCounters([{ key, expected: counter.revision, next }], windowMs)) ? true : 'moved';
    });
  }
};
