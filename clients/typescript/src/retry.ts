/** When and how long to wait before trying a request again. */
export interface RetryOptions {
  /** Attempts after the first; default 3. 0 turns retries off. */
  maxRetries?: number;
  /** Backoff before the first retry, doubled each time (full jitter); default 500 ms. */
  initialDelayMs?: number;
  /** Ceiling of a backoff delay; default 20 s. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the answer is returned (thrown) as is; default 60 s. */
  maxRetryAfterMs?: number;
}

export const retryDefaults: Required<RetryOptions> = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

/** Statuses worth another try: rate limited, or a fault on the service's side. */
export const retryableStatus = (status: number): boolean =>
  status === 429 || status === 500 || status === 502 || status === 503 || status === 504;

/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"):
 * a random delay between 0 and min(max, initial × 2^attempt). `attempt` counts from 0.
 */
export const backoffDelay = (attempt: number, options: Required<RetryOptions>, random: () => number = Math.random): number =>
  Math.floor(random() * Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** attempt));

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number = Date.now()): number | undefined => {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/** Resolves after `ms`, or rejects at once with the signal's reason when it aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
