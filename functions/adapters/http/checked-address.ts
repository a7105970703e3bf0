import type { LookupFunction } from 'node:net';
import { atDeadline } from './deadline';
import { isIP } from './node-net';

/**
 * Name resolution for outbound connections whose target a caller chose (webhooks, deploy hooks,
 * repositories): every address a host name resolves to is checked before any connection, and the
 * connection is then pinned to those checked addresses (`pinnedLookup`), so that no second
 * resolution (DNS rebinding) can swap the address.
 */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export type Address = { address: string; family: 4 | 6 };

/**
 * `node:dns` is loaded on the first lookup, as Node's own `net` loads it on the first connection to
 * a host name: a function that never resolves a caller's host (most requests) does not load it
 * while it starts, and one that does would have loaded it for its first DynamoDB call anyway.
 */
export const systemLookup: LookupAll = async (hostname) => {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(hostname, { all: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export const timedOut = Symbol('timedOut');

/** The promise's value, or `timedOut` when it has not settled within `ms` (all of it: see `atDeadline`). */
export const withDeadline = async <T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> => {
  let timer: { clear(): void } | undefined;
  const end = performance.now() + Math.max(0, ms);
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = atDeadline(end, () => resolve(timedOut));
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    timer?.clear();
  }
};

export type Resolution =
  { kind: 'ok'; addresses: Address[] } | { kind: 'refused'; address: string } | { kind: 'dns'; error: unknown } | { kind: 'timeout' };

/**
 * The addresses of `host` (a literal IP is its own address), refused as soon as one of them is
 * not `allowed`: a name that resolves to one public and one private address is refused.
 */
export const resolveChecked = async (
  host: string,
  allowed: (address: string) => boolean,
  lookup: LookupAll,
  timeoutMs: number,
): Promise<Resolution> => {
  const literal = isIP(host);
  if (literal !== 0)
    return allowed(host)
      ? { kind: 'ok', addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] }
      : { kind: 'refused', address: host };
  let resolved: Awaited<ReturnType<LookupAll>> | typeof timedOut;
  try {
    resolved = await withDeadline(
      Promise.resolve().then(() => lookup(host)),
      timeoutMs,
    );
  } catch (error) {
    return { kind: 'dns', error };
  }
  if (resolved === timedOut) return { kind: 'timeout' };
  if (!Array.isArray(resolved) || resolved.length === 0) return { kind: 'dns', error: new Error(`${host} has no addresses`) };
  const addresses: Address[] = [];
  for (const { address } of resolved) {
    if (!allowed(address)) return { kind: 'refused', address };
    addresses.push({ address, family: isIP(address) === 6 ? 6 : 4 });
  }
  return { kind: 'ok', addresses };
};

/** A `lookup` for `net.connect` that answers only with the addresses already checked. */
export const pinnedLookup =
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
