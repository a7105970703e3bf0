import dgram from 'node:dgram';
import dns from 'node:dns';
import { appendFileSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The network fence: once installed in a process, every outgoing TCP connection to anything but a
 * loopback address (127.0.0.0/8, ::1) or a unix socket, every DNS lookup of a name other than
 * `localhost` (the local runtime's own address is `http://localhost:<port>`; the hosts file answers
 * it), every c-ares query (`dns.resolve*`, `Resolver`: c-ares asks a name server itself) and every UDP
 * datagram to a non-loopback address is refused before a packet leaves, with a `NetworkFenceError`.
 *
 * Node's paths meet at these points: `net.connect`, `tls.connect`, `http(s).request` and global
 * `fetch` (undici) all call `net.Socket.prototype.connect`; a host name there is resolved by
 * `options.lookup` or the module's current `dns.lookup`, and Node emits the socket's 'lookup' event
 * with each address before it connects, giving up if the socket was destroyed meanwhile.
 *
 * Each refusal is also recorded, in memory and, when NETWORK_FENCE_LOG names a file, as one line
 * appended to it, so a run can fail even when the code under test swallows the error (a webhook
 * dispatcher records a failed attempt and moves on).
 */

export class NetworkFenceError extends Error {
  readonly code = 'ENETWORKFENCE';
}

export type Refuse = (what: string) => NetworkFenceError;

export interface FenceState {
  /** One line per refused attempt, in order. */
  refused: string[];
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 or ::1, also written as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export const isLoopbackAddress = (address: string): boolean => {
  const family = net.isIP(address);
  if (family === 0) return false;
  try {
    return loopback.check(address, family === 6 ? 'ipv6' : 'ipv4');
  } catch {
    return false; // e.g. a zone index (fe80::1%eth0)
  }
};

/** The only name the fence lets the system resolver look up. */
const isLocalhost = (host: string): boolean => host.toLowerCase() === 'localhost';

const where = (host: string, port: unknown): string => `${net.isIP(host) === 6 ? `[${host}]` : host}:${String(port)}`;

/** The first frame of the caller's own code, to name who tried. */
const callerFrame = (stack = ''): string | undefined =>
  stack
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .find((line) => line.startsWith('at ') && !/node:|network-fence|<anonymous>/.test(line));

/** A `Refuse` that records into `state` and appends a line to the file `logFile()` names, if any. */
export const refuser =
  (state: FenceState, logFile: () => string | undefined): Refuse =>
  (what) => {
    // Deep enough to get past Node's own frames (an https request is ten deep before it connects).
    const { stackTraceLimit } = Error;
    Error.stackTraceLimit = 40;
    const error = new NetworkFenceError(`network fence: ${what} (tests connect only to 127.0.0.1/[::1])`);
    Error.stackTraceLimit = stackTraceLimit;
    const caller = callerFrame(error.stack);
    const line = `${error.message}${caller ? ` ${caller}` : ''} [pid ${process.pid}]`;
    state.refused.push(line);
    const file = logFile();
    if (file) appendFileSync(file, `${line}\n`);
    return error;
  };

/** After the current code, as a microtask: a test's fake timers (which may fake `process.nextTick`) cannot hold it. */
const later = (task: () => void): void => void Promise.resolve().then(task);

interface ConnectOptions {
  host?: string | undefined;
  port?: unknown;
  path?: unknown;
}

/** The destination of `socket.connect(...)` in each of its forms (Node's own `normalizeArgs`). */
const connectOptions = (args: unknown[]): ConnectOptions => {
  const [first, second] = args;
  // `net.connect` hands the socket its arguments already normalized: [options, callback].
  if (Array.isArray(first)) return (first[0] as ConnectOptions | undefined) ?? {};
  if (first !== null && typeof first === 'object') return first as ConnectOptions;
  if (typeof first === 'string' && !(Number(first) >= 0)) return { path: first };
  return { port: first, host: typeof second === 'string' ? second : undefined };
};

const lookupGuard = Symbol('network fence lookup guard');

type Connect = (this: net.Socket, ...args: unknown[]) => unknown;

/** `net.Socket.prototype.connect`, fenced. */
export const fencedConnect = (original: Connect, refuse: Refuse): Connect =>
  function connect(this: net.Socket & { [lookupGuard]?: (...args: unknown[]) => void }, ...args) {
    const { host, port, path } = connectOptions(args);
    if (path != null) return original.apply(this, args);
    const destination = host || 'localhost';
    if (net.isIP(destination) !== 0) {
      if (!isLoopbackAddress(destination)) {
        const error = refuse(`connection to ${where(destination, port)} refused`);
        // Asynchronously, as Node reports a failed connection (a caller listens for 'error' after connect()).
        later(() => this.destroy(error));
        return this;
      }
      return original.apply(this, args);
    }
    // A host name: whatever resolves it (the fenced `dns.lookup`, or a caller's own `lookup`) must
    // answer loopback. Node emits 'lookup' before connecting and gives up on a destroyed socket.
    if (this[lookupGuard]) this.removeListener('lookup', this[lookupGuard]);
    this[lookupGuard] = (error: unknown, address: unknown) => {
      if (!error && typeof address === 'string' && !isLoopbackAddress(address))
        this.destroy(refuse(`connection to ${where(address, port)} (${destination}) refused`));
    };
    this.prependListener('lookup', this[lookupGuard]);
    return original.apply(this, args);
  };

/** Calls back with `error` later if the last argument is a callback, else rejects. */
const fail = (args: unknown[], error: Error): unknown => {
  const callback = args[args.length - 1];
  if (typeof callback !== 'function') return Promise.reject(error);
  later(() => callback(error));
  return {};
};

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * `dns.lookup` or `dns.promises.lookup`, fenced: `localhost` and IP literals (which Node answers
 * itself, asking no one) go through; any other name is refused.
 */
export const fencedLookup = (original: AnyFunction, refuse: Refuse): AnyFunction =>
  function lookup(this: unknown, ...args) {
    const [hostname] = args;
    if (!hostname || (typeof hostname === 'string' && (isLocalhost(hostname) || net.isIP(hostname) !== 0)))
      return original.apply(this, args);
    return fail(args, refuse(`DNS lookup of ${String(hostname)} refused`));
  };

/** `dns.lookupService` (getnameinfo, which may ask a name server), fenced to loopback addresses. */
export const fencedLookupService = (original: AnyFunction, refuse: Refuse): AnyFunction =>
  function lookupService(this: unknown, ...args) {
    const [address, port] = args;
    if (typeof address === 'string' && isLoopbackAddress(address)) return original.apply(this, args);
    return fail(args, refuse(`DNS reverse lookup of ${String(address)}:${String(port)} refused`));
  };

/** A c-ares query (`resolve4`, `reverse`, …): it always goes to a name server, so it is always refused. */
export const refusedQuery = (method: string, refuse: Refuse): AnyFunction =>
  function query(...args) {
    return fail(args, refuse(`DNS query ${method}(${String(args[0])}) refused`));
  };

const isConnected = (socket: dgram.Socket): boolean => {
  try {
    socket.remoteAddress();
    return true;
  } catch {
    return false;
  }
};

const allowedUdpHost = (host: unknown): boolean => typeof host !== 'string' || host === '' || isLocalhost(host) || isLoopbackAddress(host);

/** `dgram.Socket.prototype.send`, fenced (a connected socket was fenced by `connect`). */
export const fencedSend = (original: AnyFunction, refuse: Refuse): AnyFunction =>
  function send(this: dgram.Socket, ...args) {
    if (!isConnected(this)) {
      // send(msg, offset, length, port, address[, cb]) or send(msg, port[, address][, cb]), as Node tells them apart.
      const [, offset, length, port, address] = args;
      const long = Boolean(address) || (Boolean(port) && typeof port !== 'function');
      const [to, toPort] = long ? [address, port] : [length, offset];
      if (!allowedUdpHost(to)) throw refuse(`UDP datagram to ${where(String(to), toPort)} refused`);
    }
    return original.apply(this, args);
  };

/** `dgram.Socket.prototype.connect`, fenced. */
export const fencedUdpConnect = (original: AnyFunction, refuse: Refuse): AnyFunction =>
  function connect(this: dgram.Socket, ...args) {
    const [port, address] = args;
    if (!allowedUdpHost(address)) throw refuse(`UDP connection to ${where(String(address), port)} refused`);
    return original.apply(this, args);
  };

/** The c-ares queries of `node:dns`, `node:dns/promises` and their `Resolver`s. */
const queries = [
  'resolve',
  'resolve4',
  'resolve6',
  'resolveAny',
  'resolveCaa',
  'resolveCname',
  'resolveMx',
  'resolveNaptr',
  'resolveNs',
  'resolvePtr',
  'resolveSoa',
  'resolveSrv',
  'resolveTxt',
  'reverse',
] as const;

type Patchable = Record<string, unknown>;

/** Where the fence goes in: every path to the network in Node passes one of these. */
export interface FencePoints {
  /** `net.Socket.prototype` (TLS sockets inherit its `connect`). */
  tcpSocket: Patchable;
  /** `node:dns` and `node:dns/promises`: their lookups, and resolve* bound to a default resolver. */
  dns: Patchable;
  dnsPromises: Patchable;
  /** The prototypes of `dns.Resolver` and `dns.promises.Resolver`. */
  resolvers: Patchable[];
  /** `dgram.Socket.prototype`. */
  udpSocket: Patchable;
}

const nodePoints = (): FencePoints => ({
  tcpSocket: net.Socket.prototype as unknown as Patchable,
  dns: dns as unknown as Patchable,
  dnsPromises: dns.promises as unknown as Patchable,
  resolvers: [dns.Resolver.prototype, dns.promises.Resolver.prototype] as unknown as Patchable[],
  udpSocket: dgram.Socket.prototype as unknown as Patchable,
});

/** Replaces each point's function with its fenced version. */
export const fence = (points: FencePoints, refuse: Refuse): void => {
  points.tcpSocket.connect = fencedConnect(points.tcpSocket.connect as Connect, refuse);
  for (const module of [points.dns, points.dnsPromises]) {
    module.lookup = fencedLookup(module.lookup as AnyFunction, refuse);
    module.lookupService = fencedLookupService(module.lookupService as AnyFunction, refuse);
  }
  for (const target of [points.dns, points.dnsPromises, ...points.resolvers])
    for (const method of queries) target[method] = refusedQuery(method, refuse);
  points.udpSocket.send = fencedSend(points.udpSocket.send as AnyFunction, refuse);
  points.udpSocket.connect = fencedUdpConnect(points.udpSocket.connect as AnyFunction, refuse);
};

// On the `net` module object itself, shared by every realm of the process (jest runs each test
// file in a realm of its own, with its own copy of this module).
const installedState = Symbol.for('project-automation-service.network-fence');
const shared = net as unknown as Record<symbol, FenceState | undefined>;

/** The record of the fence installed in this process, if one is. */
export const installedFence = (): FenceState | undefined => shared[installedState];

/** Installs the fence in this process, once; its record of refused attempts. */
export const installNetworkFence = (): FenceState => {
  const installed = installedFence();
  if (installed) return installed;
  const state: FenceState = { refused: [] };
  // Read at each refusal: the integration tier names its record after jest has started.
  fence(
    nodePoints(),
    refuser(state, () => process.env.NETWORK_FENCE_LOG || undefined),
  );
  // ES module imports of builtins (`import { lookup } from 'node:dns'`) see the fenced functions.
  syncBuiltinESMExports();
  shared[installedState] = state;
  return state;
};

/** The lines of a NETWORK_FENCE_LOG file: every attempt refused so far (none if it does not exist yet). */
export const readFenceLog = (file: string): string[] => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

/**
 * The node option that installs the fence in a node process before its first line (whatever that
 * process's working directory; the tests' own is the repository, as for `bin/start.ts`).
 */
export const fencePreloadOption = `--import=${pathToFileURL(resolve('test/support/network-fence-preload.mjs')).href}`;

/** `existing` NODE_OPTIONS plus the fence's preload. */
export const withFencePreload = (existing = ''): string => `${existing} ${fencePreloadOption}`.trim();
