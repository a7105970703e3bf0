import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (DESIGN.md, "Events and webhooks"): Stripe's scheme, byte for byte, so a
 * receiver can verify our deliveries with Stripe's own libraries.
 *
 *   X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]
 *
 * Each `v1` is the hex HMAC-SHA256, keyed with the whole secret string (`whsec_…`, as UTF-8
 * bytes), of `<t>.<raw body>`. During a secret rotation both the new and the old secret sign, so
 * the header carries one `v1` per secret and a receiver accepts the delivery when any one matches.
 */
export const signatureHeaderName = 'X-Service-Signature';

/** How old (or how far in the future) a signed timestamp may be before a receiver refuses it. */
export const defaultToleranceSeconds = 300;

const secretPrefix = 'whsec_';
/** Headers longer than this are refused unread: no legitimate header comes near it. */
const maxHeaderLength = 8192;
const hexSignature = /^[0-9a-f]{64}$/;
const unixSeconds = /^\d{1,12}$/;

const sign = (secret: string, timestamp: number, rawBody: string | Buffer): Buffer =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(rawBody).digest();

/**
 * The value of the signature header for one attempt: the timestamp and one `v1` per secret, in the
 * order given (the current secret first, then the one being rotated out). Throws on a programming
 * error (no secret, or a timestamp that is not a whole number of seconds).
 */
export const signatureHeader = (rawBody: string, secrets: string[], timestampSeconds: number): string => {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative whole number of seconds');
  }
  const distinct = [...new Set(secrets)];
  if (distinct.length === 0 || distinct.some((secret) => secret.length === 0)) {
    throw new RangeError('at least one non-empty secret is required');
  }
  const signatures = distinct.map((secret) => `v1=${sign(secret, timestampSeconds, rawBody).toString('hex')}`);
  return [`t=${timestampSeconds}`, ...signatures].join(',');
};

export interface VerifyOptions {
  /** Largest accepted distance, in seconds, between the signed timestamp and now. Default 300. */
  toleranceSeconds?: number;
  /** The current time in unix seconds (for tests); default: the system clock. */
  nowSeconds?: number;
}

type ParsedHeader = { timestamp: number; signatures: Buffer[] };

/**
 * Parses `t=…,v1=…[,v1=…]`. Spaces around items are tolerated, as are unknown schemes (`v0=`),
 * which are ignored. More than one `t`, or a `t` that is not a number, makes the header invalid.
 * `v1` values that are not 64 hex characters cannot match and are dropped.
 */
const parseHeader = (header: string): ParsedHeader | undefined => {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !unixSeconds.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      const hex = value.toLowerCase();
      if (hexSignature.test(hex)) signatures.push(Buffer.from(hex, 'hex'));
    }
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
};

/**
 * For receivers: true when the header is well formed, its timestamp is within the tolerance of
 * now (either way) and any `v1` is the signature of this raw body under `secret`. Every candidate
 * is compared in constant time. Never throws: malformed input is simply `false`.
 */
export const verifyWebhookSignature = (
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
  options: VerifyOptions = {},
): boolean => {
  try {
    if (typeof header !== 'string' || header.length > maxHeaderLength) return false;
    if (typeof secret !== 'string' || secret.length === 0) return false;
    if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) return false;
    const tolerance = options.toleranceSeconds ?? defaultToleranceSeconds;
    const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    if (!(tolerance >= 0) || !Number.isFinite(now)) return false;

    const parsed = parseHeader(header);
    if (!parsed || Math.abs(now - parsed.timestamp) > tolerance) return false;

    const expected = sign(secret, parsed.timestamp, rawBody);
    let matched = false;
    for (const candidate of parsed.signatures) {
      // Lengths are equal by construction (64 hex characters → 32 bytes); checked anyway, since
      // timingSafeEqual throws on a length mismatch.
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
    return matched;
  } catch {
    return false;
  }
};

/**
 * A new signing secret: `whsec_` followed by 32 random bytes (256 bits) in base64url, 43
 * characters of `[A-Za-z0-9_-]`. The whole string, prefix included, is the HMAC key.
 */
export const generateWebhookSecret = (): string => secretPrefix + randomBytes(32).toString('base64url');
