import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { type Address, type LookupAll, pinnedLookup, systemLookup } from './checked-address';
import { atDeadline } from './deadline';
import { isIP } from './node-net';
import { bareHostname } from './target-address';
import { describeError, errorCode, resolveTarget } from './target-resolution';
import type { TargetPolicy } from '../../core/webhooks/target-policy';

export { assessTarget, defaultAssessTimeoutMs } from './target-resolution';

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
 *    and at most 4 KiB of the response body is read, then the socket is destroyed. A 2xx status
 *    line within the time succeeds, whatever becomes of the body after it (slow, cut off).
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
  /** The start of the response body: at most 4 KiB as JSON text (its UTF-8 bytes, escapes counted); may be cut short. */
  responseExcerpt: string;
}

export type { LookupAll } from './checked-address';

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
export const maxResponseExcerptBytes = 4096;

const clientOwnedHeaders = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** An idle kept-alive connection is closed after this long (below the 5 s that servers such as Node's keep one open). */
const idleConnectionMs = 4_000;

/** The checked addresses a request is pinned to: part of its connection pool's name. */
type PinnedOptions = http.ClientRequestArgs & { pinnedTo?: string };

/**
 * Keeps connections alive for the next attempt to the same origin, pooled by origin AND by the
 * addresses the name was checked to resolve to: a kept connection is reused only by a request
 * whose own check found exactly those addresses, so no policy or resolution is ever bypassed.
 */
class PinnedHttpAgent extends http.Agent {
  override getName(options?: PinnedOptions): string {
    return `${super.getName(options)}|${options?.pinnedTo ?? ''}`;
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: PinnedOptions & https.RequestOptions): string {
    return `${super.getName(options)}|${options?.pinnedTo ?? ''}`;
  }
}
const agentOptions = { keepAlive: true, timeout: idleConnectionMs, maxFreeSockets: 16, scheduling: 'lifo' } as const;
const httpAgent = new PinnedHttpAgent(agentOptions);
const httpsAgent = new PinnedHttpsAgent(agentOptions);
/** A kept connection the server had closed fails at once: the attempt is made again, once, on a new one. */
const staleConnectionCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

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

/** What a character takes in JSON text: its escape (`\"`, `\n`, `\u0000`…) or its UTF-8 bytes. */
const jsonBytesOf = (char: string): number => {
  const code = char.codePointAt(0) ?? 0;
  if (char === '"' || char === '\\' || char === '\b' || char === '\f' || char === '\n' || char === '\r' || char === '\t') return 2;
  if (code < 0x20) return 6;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/**
 * The excerpt as text of at most `maxResponseExcerptBytes` bytes as the delivery log's JSON carries
 * it: an incomplete trailing character is dropped, invalid bytes decode to U+FFFD (3 bytes), and a
 * control character counts as its escape (a NUL is six bytes, `\u0000`), so that a binary answer
 * cannot make an attempt six times larger in the log than a text one (a page of the log must stay
 * within Lambda's 6 MB answer).
 */
const excerptOf = (bytes: Buffer): string => {
  const text = new StringDecoder('utf8').write(bytes);
  let size = 0;
  let end = 0;
  for (const char of text) {
    size += jsonBytesOf(char);
    if (size > maxResponseExcerptBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
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
  freshConnection = false,
): Promise<AttemptResult> =>
  new Promise<AttemptResult>((resolve) => {
    const deadline = performance.now() + timeLeftMs;
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let received = 0;
    let req: http.ClientRequest | undefined;

    /** The outcome; the connection goes back to its pool only after a response read to its end. */
    const finish = (outcome: AttemptResult, keepConnection = false): void => {
      if (settled) return;
      settled = true;
      timer.clear();
      resolve(outcome);
      if (!keepConnection) req?.destroy();
    };
    const excerpt = () => excerptOf(Buffer.concat(chunks));
    const complete = (keepConnection: boolean): void => {
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) finish(result(null, null, statusCode, excerpt()), keepConnection);
      else finish(result('http_status', `HTTP ${statusCode ?? 'status missing'}`, statusCode, excerpt()), keepConnection);
    };

    const answered2xx = () => statusCode !== null && statusCode >= 200 && statusCode < 300;
    // A 2xx status line within the time is the receiver's acceptance: a body still trickling in (or
    // cut off) after it does not turn the attempt into a failure, which would send the event again.
    // At the deadline itself, never a moment before: the attempt's duration is then the whole limit.
    const timer = atDeadline(deadline, () =>
      answered2xx() ? complete(false) : finish(result('timeout', timeoutMessage, statusCode, excerpt())),
    );

    const host = bareHostname(url);
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: request.method ?? 'POST',
      headers: requestHeaders(request.headers, request.method === 'GET' ? undefined : request.body),
      agent: freshConnection ? false : url.protocol === 'https:' ? httpsAgent : httpAgent,
      lookup: pinnedLookup(addresses),
      // SNI and the certificate check use the name; an IP literal gets no SNI (RFC 6066).
      servername: isIP(host) === 0 ? host : undefined,
    };
    (options as PinnedOptions).pinnedTo = addresses.map(({ address }) => address).join(',');

    try {
      req = (url.protocol === 'https:' ? https : http).request(options, (res) => {
        statusCode = res.statusCode ?? null;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          const room = maxResponseExcerptBytes - received;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          received += Math.min(chunk.length, room);
          if (received >= maxResponseExcerptBytes) {
            complete(false);
            res.destroy();
          }
        });
        res.on('end', () => complete(true));
        res.on('error', (error) =>
          answered2xx() ? complete(false) : finish(result(classifyNetworkError(error), describeError(error), statusCode, excerpt())),
        );
        res.on('close', () => {
          if (res.complete) complete(true);
          else if (answered2xx()) complete(false);
          else finish(result('connection', 'connection closed before the response was complete', statusCode, excerpt()));
        });
      });
    } catch (error) {
      finish(result('connection', describeError(error)));
      return;
    }
    req.on('error', (error) => {
      if (!settled && statusCode === null && req?.reusedSocket && !freshConnection && staleConnectionCodes.has(errorCode(error) ?? '')) {
        settled = true;
        timer.clear();
        resolve(send(url, addresses, request, Math.max(0, deadline - performance.now()), result, timeoutMessage, true));
        return;
      }
      // The socket's own error (a reset mid-body) reaches the request before the response: after a
      // 2xx status line it is a body cut off, as on the response.
      if (answered2xx()) complete(false);
      else finish(result(classifyNetworkError(error), describeError(error), statusCode, excerpt()));
    });
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
