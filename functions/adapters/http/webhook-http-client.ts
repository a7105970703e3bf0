import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { addressClassLabel, bareHostname, checkTargetUrl, classifyAddress, isAllowedAddress } from './target-address';
import type { TargetPolicy } from '../../core/webhooks/target-policy';

/**
 * One webhook delivery attempt over the network (DESIGN.md, "Events and webhooks"):
 *
 * 1. static URL checks (`checkTargetUrl`);
 * 2. the host name is resolved and the attempt is refused, before any connection, if ANY address
 *    it resolves to is not allowed by the policy (no private, loopback, link-local, metadata…);
 * 3. the connection is pinned to the checked addresses: `http(s).request` gets a `lookup` that
 *    answers with them, so no second resolution (DNS rebinding) can swap the address, while the
 *    Host header, TLS SNI and the certificate check still use the original name;
 * 4. redirects are never followed (a 3xx is a failure), success is any 2xx;
 * 5. DNS, connect, TLS, the status line and the body read together are bounded by `timeoutMs`,
 *    and at most 4 KiB of the response body is read, then the socket is destroyed.
 *
 * Every outcome, failures included, is an `AttemptResult`; nothing throws.
 */
export type AttemptErrorClass = 'timeout' | 'connection' | 'tls' | 'dns' | 'refused_target' | 'http_status';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: AttemptErrorClass | null;
  errorMessage: string | null;
  /** At most 4 KiB (UTF-8 bytes) of the response body; may be cut short. */
  responseExcerpt: string;
}

export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface WebhookRequest {
  url: string;
  /** Caller's headers (signature, event id, User-Agent…). Host, Content-Length, Connection and
   *  Transfer-Encoding are set by the client and dropped from here. */
  headers: Record<string, string>;
  /** Ignored for GET. */
  body: string;
  /** POST (default) or GET (a health probe: no body, no Content-Type). */
  method?: 'POST' | 'GET';
  policy: TargetPolicy;
  /** Bound on the whole attempt. Default 10 000 ms. */
  timeoutMs?: number;
  /** Resolves a host name to all its addresses. Default: the system resolver (`dns.lookup`). */
  lookup?: LookupAll;
}

export const defaultAttemptTimeoutMs = 10_000;
/** Creation-time resolution gives up after this long (and then does not refuse the target). */
export const defaultAssessTimeoutMs = 5_000;
export const maxResponseExcerptBytes = 4096;
const maxErrorMessageLength = 200;

const clientOwnedHeaders = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

type Address = { address: string; family: 4 | 6 };

const systemLookup: LookupAll = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

const timedOut = Symbol('timedOut');

/** The promise's value, or `timedOut` when it has not settled within `ms`. */
const withDeadline = async <T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

type Resolution =
  | { kind: 'ok'; url: URL; addresses: Address[] }
  | { kind: 'refused'; reason: string }
  | { kind: 'dns'; message: string }
  | { kind: 'timeout' };

const shorten = (text: string): string => (text.length > maxErrorMessageLength ? `${text.slice(0, maxErrorMessageLength - 1)}…` : text);

const errorCode = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy eyeballs (autoSelectFamily) reports every failed address in an AggregateError.
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) ? errorCode(inner[0]) : undefined;
};

/** OpenSSL's `…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:file:line:`. */
const opensslReason = /error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/;

/** A one-line message: the error code and Node's message (which never holds request headers). */
const describeError = (error: unknown): string => {
  const code = errorCode(error);
  const raw = error instanceof Error && error.message ? error.message : String(error);
  const message = (opensslReason.exec(raw)?.[1] ?? raw).replace(/\s+/g, ' ').trim();
  return shorten(code && !message.includes(code) ? `${code}: ${message}` : message);
};

/** Static checks, then every address the name resolves to must be allowed. */
const resolveTarget = async (url: string, policy: TargetPolicy, lookup: LookupAll, timeoutMs: number): Promise<Resolution> => {
  const checked = checkTargetUrl(url, policy);
  if (!checked.ok) return { kind: 'refused', reason: checked.reason };
  const host = bareHostname(checked.url);
  const literal = isIP(host);
  if (literal !== 0) return { kind: 'ok', url: checked.url, addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] };

  let resolved: Awaited<ReturnType<LookupAll>> | typeof timedOut;
  try {
    resolved = await withDeadline(
      Promise.resolve().then(() => lookup(host)),
      timeoutMs,
    );
  } catch (error) {
    return { kind: 'dns', message: describeError(error) };
  }
  if (resolved === timedOut) return { kind: 'timeout' };
  if (!Array.isArray(resolved) || resolved.length === 0) return { kind: 'dns', message: `${host} has no addresses` };
  const addresses: Address[] = [];
  for (const { address } of resolved) {
    if (!isAllowedAddress(address, policy)) {
      return { kind: 'refused', reason: `${host} resolves to ${addressClassLabel(classifyAddress(address))}` };
    }
    addresses.push({ address, family: isIP(address) === 6 ? 6 : 4 });
  }
  return { kind: 'ok', url: checked.url, addresses };
};

/**
 * For webhook creation and update: the static checks, then, if the name resolves, every address
 * must be allowed. A name that does not resolve now (offline, NXDOMAIN, slow resolver) is NOT
 * refused: it may resolve later, and every delivery checks again.
 */
export async function assessTarget(
  url: string,
  policy: TargetPolicy,
  lookup: LookupAll = systemLookup,
  timeoutMs: number = defaultAssessTimeoutMs,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const resolution = await resolveTarget(url, policy, lookup, timeoutMs);
    return resolution.kind === 'refused' ? { ok: false, reason: resolution.reason } : { ok: true };
  } catch {
    return { ok: true };
  }
}

/** A `lookup` for `net.connect` that answers only with the addresses already checked. */
const pinnedLookup =
  (addresses: Address[]): LookupFunction =>
  (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all) {
        callback(
          null,
          addresses.map(({ address, family }) => ({ address, family })),
        );
        return;
      }
      const wanted = options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0;
      const chosen = addresses.find((a) => a.family === wanted) ?? addresses[0];
      if (!chosen) callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
      else callback(null, chosen.address, chosen.family);
    });
  };

const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA', 'ESERVFAIL', 'ENONAME']);
const tlsCodes = new Set([
  'EPROTO',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'HOSTNAME_MISMATCH',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
]);
const tlsPrefixes = ['ERR_TLS_', 'ERR_SSL_', 'ERR_OSSL_', 'CERT_'];

/** Socket and TLS errors by class; anything unknown counts as a connection failure. */
export const classifyNetworkError = (error: unknown): Exclude<AttemptErrorClass, 'refused_target' | 'http_status'> => {
  const code = errorCode(error) ?? '';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (dnsCodes.has(code)) return 'dns';
  if (tlsCodes.has(code) || tlsPrefixes.some((prefix) => code.startsWith(prefix))) return 'tls';
  return 'connection';
};

/**
 * The excerpt as text of at most `maxResponseExcerptBytes` UTF-8 bytes: an incomplete trailing
 * character is dropped, and since invalid bytes decode to U+FFFD (3 bytes), the text is cut again
 * after decoding so the bound holds in bytes.
 */
const excerptOf = (bytes: Buffer): string => {
  const text = new StringDecoder('utf8').write(bytes);
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(maxResponseExcerptBytes));
  return text.slice(0, read);
};

const requestHeaders = (given: Record<string, string>, body: string | undefined): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!clientOwnedHeaders.has(name.toLowerCase())) headers[name] = value;
  }
  if (body === undefined) return headers;
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  headers['Content-Length'] = String(Buffer.byteLength(body));
  return headers;
};

export async function postWebhook(request: WebhookRequest): Promise<AttemptResult> {
  const started = performance.now();
  const timeoutMs =
    typeof request.timeoutMs === 'number' && request.timeoutMs > 0 && Number.isFinite(request.timeoutMs)
      ? request.timeoutMs
      : defaultAttemptTimeoutMs;
  const remaining = () => Math.max(0, started + timeoutMs - performance.now());
  const result = (
    error: AttemptErrorClass | null,
    errorMessage: string | null,
    statusCode: number | null = null,
    responseExcerpt = '',
  ): AttemptResult => ({
    ok: error === null,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
    errorMessage,
    responseExcerpt,
  });
  const timeoutMessage = `no response within ${timeoutMs} ms`;

  try {
    const resolution = await resolveTarget(request.url, request.policy, request.lookup ?? systemLookup, remaining());
    if (resolution.kind === 'refused') return result('refused_target', resolution.reason);
    if (resolution.kind === 'dns') return result('dns', resolution.message);
    if (resolution.kind === 'timeout') return result('timeout', timeoutMessage);
    return await send(resolution.url, resolution.addresses, request, remaining(), result, timeoutMessage);
  } catch (error) {
    return result('connection', describeError(error));
  }
}

type ResultOf = (
  error: AttemptErrorClass | null,
  errorMessage: string | null,
  statusCode?: number | null,
  responseExcerpt?: string,
) => AttemptResult;

const send = (
  url: URL,
  addresses: Address[],
  request: WebhookRequest,
  timeLeftMs: number,
  result: ResultOf,
  timeoutMessage: string,
): Promise<AttemptResult> =>
  new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let received = 0;
    let req: http.ClientRequest | undefined;

    const finish = (outcome: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      req?.destroy();
    };
    const excerpt = () => excerptOf(Buffer.concat(chunks));
    const complete = (): void => {
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) finish(result(null, null, statusCode, excerpt()));
      else finish(result('http_status', `HTTP ${statusCode ?? 'status missing'}`, statusCode, excerpt()));
    };

    const timer = setTimeout(() => finish(result('timeout', timeoutMessage, statusCode, excerpt())), timeLeftMs);

    const host = bareHostname(url);
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: request.method ?? 'POST',
      headers: requestHeaders(request.headers, request.method === 'GET' ? undefined : request.body),
      agent: false, // no keep-alive: every attempt is a fresh connection to a checked address
      lookup: pinnedLookup(addresses),
      // SNI and the certificate check use the name; an IP literal gets no SNI (RFC 6066).
      servername: isIP(host) === 0 ? host : undefined,
    };

    try {
      req = (url.protocol === 'https:' ? https : http).request(options, (res) => {
        statusCode = res.statusCode ?? null;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = maxResponseExcerptBytes - received;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          received += Math.min(chunk.length, room);
          if (received >= maxResponseExcerptBytes) {
            complete();
            res.destroy();
          }
        });
        res.on('end', complete);
        res.on('error', (error) => finish(result(classifyNetworkError(error), describeError(error), statusCode, excerpt())));
        res.on('close', () => {
          if (res.complete) complete();
          else finish(result('connection', 'connection closed before the response was complete', statusCode, excerpt()));
        });
      });
    } catch (error) {
      finish(result('connection', describeError(error)));
      return;
    }
    req.on('error', (error) => finish(result(classifyNetworkError(error), describeError(error), statusCode, excerpt())));
    // A 101 answer: nothing to upgrade to, the attempt failed.
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      finish(result('http_status', `HTTP ${res.statusCode ?? 101}`, res.statusCode ?? 101));
    });
    req.on('close', () => {
      if (statusCode === null) finish(result('connection', 'connection closed without a response'));
    });
    req.end(request.method === 'GET' ? undefined : request.body);
  });
