import { jest } from '@jest/globals';
import dgram from 'node:dgram';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fence,
  fencedConnect,
  fencedLookup,
  fencedLookupService,
  fencedSend,
  fencedUdpConnect,
  installedFence,
  installNetworkFence,
  NetworkFenceError,
  readFenceLog,
  refusedQuery,
  refuser,
  withFencePreload,
  type FenceState,
} from '../support/network-fence';

// Every refusal here goes to a spy standing for what the fence wraps: a broken fence reaches the
// spy, never the network.

const newRefuse = (logFile?: string) => {
  const state: FenceState = { refused: [] };
  return { state, refuse: refuser(state, () => logFile) };
};

const errorOf = (socket: net.Socket): Promise<Error> => new Promise((resolve) => socket.once('error', resolve));

describe('the network fence: TCP connections', () => {
  it.each([
    ['a public literal', '93.184.215.14', '93.184.215.14:443'],
    ['a private literal', '10.0.0.1', '10.0.0.1:443'],
    ['a link-local literal', '169.254.169.254', '169.254.169.254:443'],
    ['an IPv4-mapped IPv6 literal', '::ffff:93.184.215.14', '[::ffff:93.184.215.14]:443'],
    ['a link-local IPv6 literal', 'fe80::1', '[fe80::1]:443'],
    ['the unspecified address', '0.0.0.0', '0.0.0.0:443'],
  ])('refuses %s without calling connect, erroring the socket and recording the attempt', async (_, host, shown) => {
    const dir = mkdtempSync(join(tmpdir(), 'fence-'));
    try {
      const { state, refuse } = newRefuse(join(dir, 'log'));
      const original = jest.fn();
      const socket = new net.Socket();
      const failed = errorOf(socket);

      expect(fencedConnect(original, refuse).call(socket, { host, port: 443 })).toBe(socket);

      const error = await failed;
      expect(error).toBeInstanceOf(NetworkFenceError);
      expect(error.message).toBe(`network fence: connection to ${shown} refused (tests connect only to 127.0.0.1/[::1])`);
      expect(original).not.toHaveBeenCalled();
      expect(state.refused).toHaveLength(1);
      expect(state.refused[0]).toContain(`connection to ${shown} refused`);
      expect(readFenceLog(join(dir, 'log'))).toEqual(state.refused);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the destination from each form of connect(): (port, host), net.connect’s normalized array, a path', async () => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    const connect = fencedConnect(original, refuse);

    const byPort = new net.Socket();
    const failed = errorOf(byPort);
    connect.call(byPort, 443, '10.1.2.3', () => undefined);
    expect((await failed).message).toContain('10.1.2.3:443');

    const normalized = new net.Socket();
    const failedToo = errorOf(normalized);
    connect.call(normalized, [{ host: '192.168.1.1', port: 80 }, null]);
    expect((await failedToo).message).toContain('192.168.1.1:80');

    connect.call(new net.Socket(), { path: '/tmp/some.sock' });
    connect.call(new net.Socket(), '/tmp/other.sock');
    expect(original).toHaveBeenCalledTimes(2);
    expect(state.refused).toHaveLength(2);
  });

  it('passes loopback literals, localhost and a missing host (Node’s default: localhost) to connect', () => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    const connect = fencedConnect(original, refuse);
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', 'localhost', undefined])
      connect.call(new net.Socket(), { host, port: 80 });
    expect(original).toHaveBeenCalledTimes(6);
    expect(state.refused).toEqual([]);
  });

  it('refuses a host name whose lookup answers a non-loopback address, before Node connects', () => {
    const { state, refuse } = newRefuse();
    const reached: string[] = [];
    // What Node's connect does with a host name: resolve it, emit 'lookup', connect unless destroyed.
    const nodeLike = function (this: net.Socket, ...args: unknown[]) {
      const { host } = args[0] as { host: string };
      (this as { connecting: boolean }).connecting = true;
      for (const address of ['127.0.0.1', '93.184.215.14']) {
        this.emit('lookup', null, address, 4, host);
        if (!this.connecting) return this;
      }
      reached.push(host);
      return this;
    };
    const socket = new net.Socket();
    const failed = errorOf(socket);

    fencedConnect(nodeLike, refuse).call(socket, { host: 'hooks.test', port: 443 });

    expect(reached).toEqual([]);
    expect(socket.destroyed).toBe(true);
    expect(state.refused).toEqual([expect.stringContaining('connection to 93.184.215.14:443 (hooks.test) refused')]);
    return expect(failed).resolves.toBeInstanceOf(NetworkFenceError);
  });
});

describe('the network fence: name resolution', () => {
  it.each(['github.com', 'api.localhost', 'example.invalid'])('refuses a lookup of %s without calling the resolver', async (name) => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    const callbackError = await new Promise<Error>((resolve) => fencedLookup(original, refuse)(name, { all: true }, resolve));
    await expect(fencedLookup(original, refuse)(name)).rejects.toThrow(`network fence: DNS lookup of ${name} refused`);
    expect(callbackError).toBeInstanceOf(NetworkFenceError);
    expect(original).not.toHaveBeenCalled();
    expect(state.refused).toHaveLength(2);
  });

  it('passes localhost and IP literals (Node answers those without asking anyone) to the resolver', () => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    for (const name of ['localhost', 'LOCALHOST', '127.0.0.1', '93.184.215.14', '::1'])
      fencedLookup(original, refuse)(name, () => undefined);
    expect(original).toHaveBeenCalledTimes(5);
    expect(state.refused).toEqual([]);
  });

  it('refuses every c-ares query, callback or promise, and reverse lookups of non-loopback addresses', async () => {
    const { state, refuse } = newRefuse();
    const viaCallback = await new Promise<Error>((resolve) => refusedQuery('resolve4', refuse)('localhost', resolve));
    expect(viaCallback.message).toBe('network fence: DNS query resolve4(localhost) refused (tests connect only to 127.0.0.1/[::1])');
    await expect(refusedQuery('reverse', refuse)('93.184.215.14')).rejects.toThrow(NetworkFenceError);

    const original = jest.fn();
    await expect(fencedLookupService(original, refuse)('10.0.0.1', 22)).rejects.toThrow('DNS reverse lookup of 10.0.0.1:22 refused');
    fencedLookupService(original, refuse)('127.0.0.1', 22, () => undefined);
    expect(original).toHaveBeenCalledTimes(1);
    expect(state.refused).toHaveLength(3);
  });
});

describe('the network fence: UDP', () => {
  let socket: dgram.Socket;
  beforeEach(() => (socket = dgram.createSocket('udp4')));
  afterEach(() => socket.close());

  it('refuses a datagram to a non-loopback address or a host name, in either form of send(), without calling send', () => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    const send = fencedSend(original, refuse);
    expect(() => send.call(socket, 'x', 53, '8.8.8.8')).toThrow('network fence: UDP datagram to 8.8.8.8:53 refused');
    expect(() => send.call(socket, Buffer.from('xy'), 0, 2, 53, 'dns.test', () => undefined)).toThrow(
      'UDP datagram to dns.test:53 refused',
    );
    expect(() => fencedUdpConnect(original, refuse).call(socket, 53, '10.0.0.53')).toThrow('UDP connection to 10.0.0.53:53 refused');
    expect(original).not.toHaveBeenCalled();
    expect(state.refused).toHaveLength(3);
  });

  it('passes datagrams to loopback, to localhost and to the default address', () => {
    const { state, refuse } = newRefuse();
    const original = jest.fn();
    const send = fencedSend(original, refuse);
    send.call(socket, 'x', 9, '127.0.0.1');
    send.call(socket, Buffer.from('xy'), 0, 2, 9, 'localhost');
    send.call(socket, 'x', 9);
    expect(original).toHaveBeenCalledTimes(3);
    expect(state.refused).toEqual([]);
  });
});

describe('the network fence: where it goes in', () => {
  const spied = () => {
    const spies = (...names: string[]) => Object.fromEntries(names.map((name) => [name, jest.fn()]));
    const resolves = ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveMx', 'resolveTxt', 'reverse'];
    return {
      tcpSocket: spies('connect'),
      dns: spies('lookup', 'lookupService', ...resolves),
      dnsPromises: spies('lookup', 'lookupService', ...resolves),
      resolvers: [spies(...resolves), spies(...resolves)],
      udpSocket: spies('send', 'connect'),
    };
  };

  it('fences every point, so that none of the wrapped functions is reached by a refused attempt', async () => {
    const { state, refuse } = newRefuse();
    const points = spied();
    const originals = [points.tcpSocket, points.dns, points.dnsPromises, ...points.resolvers, points.udpSocket].flatMap(Object.values);
    fence(points, refuse);

    const socket = new net.Socket();
    const failed = errorOf(socket);
    (points.tcpSocket.connect as (this: net.Socket, ...args: unknown[]) => unknown).call(socket, { host: '172.16.0.1', port: 5432 });
    await failed;
    const call = (target: Record<string, unknown>, name: string, ...args: unknown[]) =>
      Promise.resolve((target[name] as (...a: unknown[]) => unknown)(...args));
    for (const module of [points.dns, points.dnsPromises]) {
      await expect(call(module, 'lookup', 'github.com')).rejects.toThrow(NetworkFenceError);
      await expect(call(module, 'lookupService', '8.8.8.8', 53)).rejects.toThrow(NetworkFenceError);
    }
    for (const target of [points.dns, points.dnsPromises, ...points.resolvers])
      for (const name of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveMx', 'resolveTxt', 'reverse'])
        await expect(call(target, name, 'github.com')).rejects.toThrow(NetworkFenceError);
    const udp = dgram.createSocket('udp4');
    try {
      expect(() => (points.udpSocket.send as (this: dgram.Socket, ...args: unknown[]) => unknown).call(udp, 'x', 53, '8.8.8.8')).toThrow(
        NetworkFenceError,
      );
      expect(() => (points.udpSocket.connect as (this: dgram.Socket, ...args: unknown[]) => unknown).call(udp, 53, '8.8.8.8')).toThrow(
        NetworkFenceError,
      );
    } finally {
      udp.close();
    }

    for (const original of originals) expect(original).not.toHaveBeenCalled();
    expect(state.refused).toHaveLength(1 + 4 + 4 * 7 + 2);
  });
});

describe('the network fence, as installed in this process', () => {
  const servers: net.Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const serverOn = async (host: string): Promise<number> => {
    const server = net.createServer((connection) => connection.end('hello'));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as AddressInfo).port;
  };

  const greeting = (options: net.NetConnectOpts): Promise<string> =>
    new Promise((resolve, reject) => {
      let text = '';
      net
        .connect(options)
        .on('data', (chunk) => (text += chunk.toString()))
        .on('end', () => resolve(text))
        .on('error', reject);
    });

  it('is installed in this jest process before any test runs, once (every test file shares its record)', () => {
    const installed = installedFence();
    expect(installed).toBeDefined();
    expect(installNetworkFence()).toBe(installed);
  });

  it.each(['127.0.0.1', '::1'])('lets a connection to a server the test started on %s through', async (host) => {
    const port = await serverOn(host);
    await expect(greeting({ host, port })).resolves.toBe('hello');
  });

  it('lets a connection through whose own lookup answers loopback (a webhook client’s pinned address)', async () => {
    const port = await serverOn('127.0.0.1');
    const lookup: net.LookupFunction = (_host, options, callback) =>
      options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
    await expect(greeting({ host: 'hooks.test', port, lookup })).resolves.toBe('hello');
  });
});

describe('the network fence in a node process started with its NODE_OPTIONS (the local runtime, the CLI)', () => {
  it('is installed before the program runs, refuses a connection to a public literal and records it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fence-'));
    try {
      const log = join(dir, 'log');
      // Node connects to an IP literal on the next tick: destroyed at once, this socket sends
      // nothing, fenced or not.
      const program = [
        "const net = require('node:net');",
        "const fenced = net[Symbol.for('project-automation-service.network-fence')] !== undefined;",
        "const socket = net.connect(443, '93.184.215.14').on('error', () => {});",
        'const connecting = socket.connecting;',
        'socket.destroy();',
        'console.log(JSON.stringify({ fenced, connecting }));',
      ].join('\n');
      const output = execFileSync(process.execPath, ['-e', program], {
        env: { ...process.env, NODE_OPTIONS: withFencePreload(), NETWORK_FENCE_LOG: log },
        encoding: 'utf8',
      });
      expect(JSON.parse(output)).toEqual({ fenced: true, connecting: false });
      expect(readFenceLog(log)).toEqual([expect.stringContaining('network fence: connection to 93.184.215.14:443 refused')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
