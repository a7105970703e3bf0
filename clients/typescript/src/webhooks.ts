import type { ServiceEvent } from './generated/events.js';
import { ServiceError, WebhookSignatureError } from './errors.js';

/**
 * Webhook signatures, verified with Web Crypto (Node 20+ and browsers alike). The scheme is
 * Stripe's: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each `v1` the HMAC-SHA256
 * of `<t>.<raw body>` keyed with the whole secret (`whsec_…`); two `v1` values while a secret is
 * being rotated.
 */
export const signatureHeaderName = 'X-Service-Signature';

export const defaultToleranceSeconds = 300;

export interface ConstructEventOptions {
  /** Largest accepted distance between the signed time and now, in seconds; default 300. */
  tolerance?: number;
  /** Now in unix seconds (for tests); default the clock. */
  nowSeconds?: number;
}

const encoder = new TextEncoder();
const maxHeaderLength = 8192;

const hexBytes = (hex: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
};

const parseHeader = (header: string): { timestamp: number; signatures: Uint8Array<ArrayBuffer>[] } | undefined => {
  let timestamp: number | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      const bytes = hexBytes(value);
      if (bytes) signatures.push(bytes);
    }
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
};

const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

const hmacKey = (secret: string, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

const signedPayload = (timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> => {
  const prefix = encoder.encode(`${timestamp}.`);
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix);
  payload.set(body, prefix.length);
  return payload;
};

/**
 * The `X-Service-Signature` header as a server hands it over: a string, or (node's
 * `IncomingHttpHeaders`) a list of its lines, read as one list of values.
 */
export type SignatureHeader = string | readonly string[] | null | undefined;

const headerText = (header: SignatureHeader): string | undefined =>
  typeof header === 'string' ? header : Array.isArray(header) ? header.join(',') : undefined;

/**
 * Why a delivery does not verify, in words that say what to do; undefined when it verifies.
 * `crypto.subtle.verify` compares in constant time.
 */
const signatureProblem = async (
  rawBody: string | Uint8Array,
  signatureHeader: SignatureHeader,
  secret: string,
  options: ConstructEventOptions,
): Promise<string | undefined> => {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array))
    return 'The body must be the raw body as received (a string, Buffer or Uint8Array), not parsed JSON: the signature covers its exact bytes.';
  if (typeof secret !== 'string' || secret.length === 0)
    return "No secret given: pass the webhook's signing secret (whsec_…, shown when the webhook was created or its secret rotated).";
  const header = headerText(signatureHeader);
  if (header === undefined || header === '')
    return `No ${signatureHeaderName} header: pass the delivery's own header (request.headers['x-service-signature'] in node).`;
  const parsed = header.length > maxHeaderLength ? undefined : parseHeader(header);
  if (!parsed) return `The ${signatureHeaderName} header is not "t=<unix seconds>,v1=<64 hex digits>[,v1=…]": pass it exactly as received.`;
  const tolerance = options.tolerance ?? defaultToleranceSeconds;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const distance = Math.abs(now - parsed.timestamp);
  if (!(tolerance >= 0) || distance > tolerance)
    return `The signature was made ${distance} s ${parsed.timestamp < now ? 'ago' : 'in the future'}, beyond the tolerance of ${tolerance} s: an old delivery replayed, or this machine's clock is off.`;
  const key = await hmacKey(secret, 'verify');
  const payload = signedPayload(parsed.timestamp, bytesOf(rawBody));
  let matched = false;
  // Every candidate is checked, so the time taken does not tell which one matched.
  for (const signature of parsed.signatures) {
    if (await crypto.subtle.verify('HMAC', key, signature, payload)) matched = true;
  }
  return matched
    ? undefined
    : "No v1 signature matches this body under this secret: use this webhook's own current secret, and the raw body bytes as received (before any JSON parsing or re-serialising).";
};

/**
 * True when `header` is well formed, its time is within the tolerance of now and one of its `v1`
 * values is this body's signature under `secret`.
 */
export const verifySignature = async (
  rawBody: string | Uint8Array,
  signatureHeader: SignatureHeader,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<boolean> => (await signatureProblem(rawBody, signatureHeader, secret, options)) === undefined;

/**
 * The signature header for a body, as the service sends it (for tests of a receiver): signed with
 * `secrets` (one, or several as while a secret is rotated) at `timestampSeconds` (default now).
 */
export const signPayload = async (
  rawBody: string | Uint8Array,
  secrets: string | readonly string[],
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): Promise<string> => {
  const keys = typeof secrets === 'string' ? [secrets] : [...new Set(secrets)];
  if (keys.length === 0 || keys.some((secret) => typeof secret !== 'string' || secret.length === 0))
    throw new TypeError('signPayload needs a secret (whsec_…) or a list of them.');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0)
    throw new TypeError(`signPayload's timestamp is unix seconds, a whole number, not ${String(timestampSeconds)}.`);
  const payload = signedPayload(timestampSeconds, bytesOf(rawBody));
  const values = await Promise.all(
    keys.map(async (secret) => {
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), payload));
      return `v1=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    }),
  );
  return [`t=${timestampSeconds}`, ...values].join(',');
};

/**
 * The event of a webhook delivery, once its signature is verified: pass the raw body exactly as
 * received (before any JSON parsing) and the `X-Service-Signature` header. Throws
 * `WebhookSignatureError`, its message saying why and what to do, when the signature does not verify, and a `ServiceError` when a body that
 * verifies is not JSON.
 */
export const constructEvent = async (
  rawBody: string | Uint8Array,
  signatureHeader: SignatureHeader,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<ServiceEvent> => {
  const problem = await signatureProblem(rawBody, signatureHeader, secret, options);
  if (problem !== undefined) throw new WebhookSignatureError(problem);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  try {
    return JSON.parse(text) as ServiceEvent;
  } catch (cause) {
    // Signed with this secret, yet not an event: not the service's body (a test of your own, say).
    throw new ServiceError('The webhook body is signed with this secret but is not a JSON event.', { cause });
  }
};

export const webhooks = { constructEvent, verifySignature, signPayload, signatureHeaderName };
