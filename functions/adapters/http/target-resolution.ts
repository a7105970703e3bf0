import { type Address, type LookupAll, resolveChecked, systemLookup } from './checked-address';
import { addressClassLabel, bareHostname, checkTargetUrl, classifyAddress, isAllowedAddress } from './target-address';
import type { TargetPolicy } from '../../core/webhooks/target-policy';

/**
 * A target's resolution under the policy (the static URL checks, then every address the name
 * resolves to): what an attempt runs before connecting, and, alone, the creation-time check.
 * Apart from the HTTP client so that checking a URL does not load the client and its agents.
 */

/** Creation-time resolution gives up after this long (and then does not refuse the target). */
export const defaultAssessTimeoutMs = 5_000;
const maxErrorMessageLength = 200;

export type Resolution =
  | { kind: 'ok'; url: URL; addresses: Address[] }
  | { kind: 'refused'; reason: string }
  | { kind: 'dns'; message: string }
  | { kind: 'timeout' };

const shorten = (text: string): string => (text.length > maxErrorMessageLength ? `${text.slice(0, maxErrorMessageLength - 1)}…` : text);

export const errorCode = (error: unknown): string | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy eyeballs (autoSelectFamily) reports every failed address in an AggregateError.
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) ? errorCode(inner[0]) : undefined;
};

/** OpenSSL's `…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:file:line:`. */
const opensslReason = /error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/;

/** The error itself, or the first of happy eyeballs' AggregateError (one per address tried). */
const firstError = (error: unknown): unknown => {
  const inner = typeof error === 'object' && error !== null ? (error as { errors?: unknown }).errors : undefined;
  return Array.isArray(inner) && inner.length > 0 ? inner[0] : error;
};

/**
 * Node's socket errors end with the address and port they tried (`connect ECONNREFUSED
 * 203.0.113.7:443`): left out, so an answer never says which address a name resolved to.
 */
const withoutAddress = (message: string, error: unknown): string => {
  const { address, port } = (typeof error === 'object' && error !== null ? error : {}) as { address?: unknown; port?: unknown };
  if (typeof address !== 'string' || address === '') return message;
  return message
    .split(typeof port === 'number' ? `${address}:${port}` : address)
    .join('')
    .split(address)
    .join('');
};

/** A one-line message: the error code and Node's message, without addresses (and never request headers). */
export const describeError = (error: unknown): string => {
  const code = errorCode(error);
  const source = firstError(error);
  // Duck-typed: an error made in another realm (a VM context) is not `instanceof Error` here.
  const ownMessage = typeof source === 'object' && source !== null ? (source as { message?: unknown }).message : undefined;
  const raw = typeof ownMessage === 'string' && ownMessage !== '' ? ownMessage : String(source);
  // Node's HTTP parser (llhttp): `Parse Error: Expected HTTP/`, with the code apart.
  const parserReason = (source as { reason?: unknown } | null)?.reason;
  if (code?.startsWith('HPE_'))
    return shorten(
      `the answer is not HTTP: ${typeof parserReason === 'string' && parserReason !== '' ? parserReason : raw.replace(/^Parse Error:\s*/, '')} (${code})`,
    );
  const message = withoutAddress(opensslReason.exec(raw)?.[1] ?? raw, source)
    .replace(/\s+/g, ' ')
    .trim();
  return shorten(code && !message.includes(code) ? `${code}: ${message}` : message);
};

/** Static checks, then every address the name resolves to must be allowed. */
export const resolveTarget = async (url: string, policy: TargetPolicy, lookup: LookupAll, timeoutMs: number): Promise<Resolution> => {
  const checked = checkTargetUrl(url, policy);
  if (!checked.ok) return { kind: 'refused', reason: checked.reason };
  const host = bareHostname(checked.url);
  const resolution = await resolveChecked(host, (address) => isAllowedAddress(address, policy), lookup, timeoutMs);
  switch (resolution.kind) {
    case 'ok':
      return { kind: 'ok', url: checked.url, addresses: resolution.addresses };
    case 'refused':
      return { kind: 'refused', reason: `${host} resolves to ${addressClassLabel(classifyAddress(resolution.address))}` };
    case 'dns':
      return { kind: 'dns', message: describeError(resolution.error) };
    default:
      return { kind: 'timeout' };
  }
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
