import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { bareHostname, checkTargetUrl, isAllowedAddress, type TargetPolicy } from '../../core/webhooks/target-address';
import {
  type AttemptErrorClass,
  type AttemptResult,
  assessTarget,
  classifyNetworkError,
  defaultAttemptTimeoutMs,
  type LookupAll,
} from '../http/webhook-http-client';

/**
 * One GET health probe through the webhook SSRF guard.
 *
 * INTERIM: `postWebhook` only sends POST and keeps its resolve-and-pin steps private. Until it
 * takes a `method` (the proposed refactor: `WebhookRequest.method?: 'POST' | 'GET'`, no body, no
 * Content-Type/Length on GET), this probe reuses what the module exports:
 *
 * - the checks themselves are `assessTarget` (static URL checks, then every resolved address
 *   against the policy), fed by a lookup that records what it answered; the recorded addresses
 *   are checked once more with `isAllowedAddress` (an answer that came after `assessTarget` gave
 *   up waiting was never checked), and a name that did not resolve is a failure here (assessTarget
 *   is lenient about that, for creation time);
 * - the connection is pinned to those addresses (no second resolution), redirects are never
 *   followed, DNS + connect + TLS + the status line are bounded by `timeoutMs`, and the body is
 *   never read: the socket is destroyed once the status line is in.
 *
 * Like `postWebhook` it never throws; `ok` is a 2xx. `responseExcerpt` is always empty.
 */
export interface ProbeRequest {
  url: string;
  headers?: Record<string, string>;
  policy: TargetPolicy;
  /** Bound on the whole probe. Default 10 000 ms. */
  timeoutMs?: number;
  lookup?: LookupAll;
}

export type Probe = (request: ProbeRequest) => Promise<AttemptResult>;

type Address = { address: string; family: 4 | 6 };

const systemLookup: LookupAll = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

const errorText = (error: unknown): string => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  const text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

const pinned =
  (addresses: Address[]): LookupFunction =>
  (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all) return callback(null, addresses);
      const wanted = options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0;
      const chosen = addresses.find((a) => a.family === wanted) ?? addresses[0];
      if (!chosen) return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, chosen.address, chosen.family);
    });
  };

type Resolved = { kind: 'ok'; url: URL; addresses: Address[] } | { kind: 'failed'; error: AttemptErrorClass; message: string };

const resolve = async (request: ProbeRequest, timeoutMs: number, timeoutMessage: string): Promise<Resolved> => {
  const checked = checkTargetUrl(request.url, request.policy);
  if (!checked.ok) return { kind: 'failed', error: 'refused_target', message: checked.reason };
  const host = bareHostname(checked.url);
  const literal = isIP(host);
  if (literal !== 0) return { kind: 'ok', url: checked.url, addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] };

  const lookup = request.lookup ?? systemLookup;
  let answered: Address[] | undefined;
  let failure: unknown;
  const recording: LookupAll = async (name) => {
    try {
      const found = await lookup(name);
      answered = found.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
      return found;
    } catch (error) {
      failure = error;
      throw error;
    }
  };
  const verdict = await assessTarget(request.url, request.policy, recording, timeoutMs);
  if (!verdict.ok) return { kind: 'failed', error: 'refused_target', message: verdict.reason };
  const addresses = answered;
  if (addresses === undefined) {
    return failure === undefined
      ? { kind: 'failed', error: 'timeout', message: timeoutMessage }
      : { kind: 'failed', error: 'dns', message: errorText(failure) };
  }
  if (addresses.length === 0) return { kind: 'failed', error: 'dns', message: `${host} has no addresses` };
  if (!addresses.every(({ address }) => isAllowedAddress(address, request.policy))) {
    return { kind: 'failed', error: 'refused_target', message: `${host} resolves to an address that is not allowed` };
  }
  return { kind: 'ok', url: checked.url, addresses };
};

export const probe: Probe = async (request) => {
  const started = performance.now();
  const timeoutMs = request.timeoutMs !== undefined && request.timeoutMs > 0 && Number.isFinite(request.timeoutMs) ? request.timeoutMs : defaultAttemptTimeoutMs;
  const timeoutMessage = `no response within ${timeoutMs} ms`;
  const remaining = () => Math.max(0, started + timeoutMs - performance.now());
  const result = (statusCode: number | null, error: AttemptErrorClass | null, errorMessage: string | null): AttemptResult => ({
    ok: error === null,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
    errorMessage,
    responseExcerpt: '',
  });

  let resolved: Resolved;
  try {
    resolved = await resolve(request, remaining(), timeoutMessage);
  } catch (error) {
    return result(null, 'connection', errorText(error));
  }
  if (resolved.kind === 'failed') return result(null, resolved.error, resolved.message);
  const { url, addresses } = resolved;

  return new Promise<AttemptResult>((settle) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    const finish = (outcome: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(outcome);
      req?.destroy();
    };
    const timer = setTimeout(() => finish(result(null, 'timeout', timeoutMessage)), remaining());
    const host = bareHostname(url);
    try {
      req = (url.protocol === 'https:' ? https : http).request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { Accept: '*/*', ...request.headers },
          agent: false,
          lookup: pinned(addresses),
          servername: isIP(host) === 0 ? host : undefined,
        },
        (res) => {
          const status = res.statusCode ?? null;
          finish(status !== null && status >= 200 && status < 300 ? result(status, null, null) : result(status, 'http_status', `HTTP ${status ?? 'status missing'}`));
          res.destroy();
        },
      );
    } catch (error) {
      finish(result(null, 'connection', errorText(error)));
      return;
    }
    req.on('error', (error) => finish(result(null, classifyNetworkError(error), errorText(error))));
    req.on('close', () => finish(result(null, 'connection', 'connection closed without a response')));
    req.end();
  });
};
