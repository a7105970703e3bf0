/**
 * The static checks of a webhook target (the URL and literal IP addresses) under a `TargetPolicy`.
 * A host name must also be resolved and every address it resolves to checked with
 * `isAllowedAddress`, then the connection pinned to a checked address: see `webhook-http-client.ts`.
 */
import { type BlockList, isIP, newBlockList } from './node-net';
import type { TargetPolicy } from '../../core/webhooks/target-policy';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'reserved';

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

export const maxTargetUrlLength = 2048;

type Ranges = { v4?: [string, number][]; v6?: [string, number][] };

const blockList = ({ v4 = [], v6 = [] }: Ranges): BlockList => {
  const list = newBlockList();
  for (const [network, prefix] of v4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of v6) list.addSubnet(network, prefix, 'ipv6');
  return list;
};

/**
 * Checked in this order: the first class whose list holds the address wins. Built on the first
 * check, not at import: every function that checks a repository or webhook address carries this
 * module, and most of their cold starts check none.
 */
const buildClasses = (): [Exclude<AddressClass, 'public'>, BlockList][] => [
  [
    'metadata',
    blockList({
      v4: [
        ['169.254.169.254', 32], // AWS, GCP, Azure, Oracle, OpenStack instance metadata
        ['100.100.100.200', 32], // Alibaba Cloud instance metadata (inside CGNAT)
      ],
      v6: [['fd00:ec2::254', 128]], // AWS instance metadata over IPv6 (inside the ULA range)
    }),
  ],
  ['link_local', blockList({ v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] })],
  ['loopback', blockList({ v4: [['127.0.0.0', 8]], v6: [['::1', 128]] })],
  [
    'private',
    blockList({
      v4: [
        ['10.0.0.0', 8],
        ['100.64.0.0', 10], // CGNAT (RFC 6598)
        ['172.16.0.0', 12],
        ['192.168.0.0', 16],
      ],
      v6: [
        ['fc00::', 7], // unique local addresses (RFC 4193)
        ['fec0::', 10], // deprecated site-local
      ],
    }),
  ],
  [
    'reserved',
    blockList({
      v4: [
        ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host on Linux
        ['192.0.0.0', 24], // IETF protocol assignments
        ['192.0.2.0', 24], // documentation (TEST-NET-1)
        ['198.18.0.0', 15], // benchmarking
        ['198.51.100.0', 24], // documentation (TEST-NET-2)
        ['203.0.113.0', 24], // documentation (TEST-NET-3)
        ['224.0.0.0', 4], // multicast
        ['240.0.0.0', 4], // future use and the limited broadcast address
      ],
      v6: [
        ['::', 128], // unspecified
        ['100::', 64], // discard-only
        // Local-use NAT64 (RFC 8215). The IPv4 address it embeds, the cloud metadata one included,
        // sits where the network's own prefix length puts it (RFC 6052), so it cannot be told: refused.
        ['64:ff9b:1::', 48],
        ['2001:db8::', 32], // documentation
        ['ff00::', 8], // multicast
      ],
    }),
  ],
];

let classes: ReturnType<typeof buildClasses> | undefined;

/** The eight 16-bit groups of a valid IPv6 address (validated by `isIP` beforehand). */
const ipv6Groups = (ip: string): number[] => {
  let text = ip;
  const embedded: number[] = [];
  if (text.includes('.')) {
    const cut = text.lastIndexOf(':');
    const [a = 0, b = 0, c = 0, d = 0] = text
      .slice(cut + 1)
      .split('.')
      .map(Number);
    embedded.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, cut + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const groups = (part: string | undefined): number[] => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const [headText, tailText] = text.split('::');
  const head = groups(headText);
  if (tailText === undefined) return [...head, ...embedded];
  const tail = [...groups(tailText), ...embedded];
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
};

const ipv4From = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address stands for, when it is an IPv4-mapped (`::ffff:a.b.c.d`,
 * also written `::ffff:7f00:1`), IPv4-translated (`::ffff:0:a.b.c.d`) or NAT64 (`64:ff9b::/96`)
 * address: a connection to it reaches that IPv4 address, so it is classified as that address.
 */
const embeddedIpv4 = (g: number[]): string | undefined => {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const high = g[6] ?? 0;
  const low = g[7] ?? 0;
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4From(high, low);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4From(high, low);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4From(high, low);
  return undefined;
};

const classifyIn = (ip: string, type: 'ipv4' | 'ipv6'): AddressClass => {
  classes ??= buildClasses();
  for (const [name, list] of classes) if (list.check(ip, type)) return name;
  return 'public';
};

/**
 * The class of an IP address (v4 or v6, a zone id such as `%eth0` is ignored). Anything that is
 * not a valid IP address is `reserved`, so that it is refused.
 */
export const classifyAddress = (ip: string): AddressClass => {
  const address = ip
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 4) return classifyIn(address, 'ipv4');
  if (version !== 6) return 'reserved';

  const groups = ipv6Groups(address);
  const v4 = embeddedIpv4(groups);
  if (v4 !== undefined) return classifyIn(v4, 'ipv4');
  // ::/96: the unspecified address, ::1 and the IPv4-compatible addresses (deprecated, RFC 4291).
  if (groups.slice(0, 6).every((x) => x === 0)) return groups[6] === 0 && groups[7] === 1 ? 'loopback' : 'reserved';
  // 6to4 (2002::/16) embeds an IPv4 address in bits 16-47; refuse one that embeds a non-public one.
  if (groups[0] === 0x2002 && classifyIn(ipv4From(groups[1] ?? 0, groups[2] ?? 0), 'ipv4') !== 'public') {
    return 'reserved';
  }
  return classifyIn(address, 'ipv6');
};

export const isAllowedAddress = (ip: string, policy: TargetPolicy): boolean => {
  const kind = classifyAddress(ip);
  if (kind === 'public') return true;
  return (kind === 'loopback' || kind === 'private') && policy.allowPrivate;
};

/** `a private address`, `a cloud metadata address`…: for validation messages (no address echoed). */
export const addressClassLabel = (kind: AddressClass): string =>
  ({
    public: 'a public address',
    loopback: 'a loopback address',
    private: 'a private address',
    link_local: 'a link-local address',
    metadata: 'a cloud metadata address',
    reserved: 'a reserved address',
  })[kind];

const refusalReason = (ip: string): string => `target is ${addressClassLabel(classifyAddress(ip))}`;

/** The host name of a URL without brackets or a trailing dot, lower case (the URL parser lowercases). */
export const bareHostname = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** `localhost` and `*.localhost` always mean the local host (RFC 6761), whatever DNS says. */
export const isLocalhostName = (hostname: string): boolean => hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * The static checks on a webhook URL: it parses, is at most 2048 characters, uses https (or http
 * when `!policy.requireHttps`), carries no user name or password, has a host and a port other
 * than 0, and a literal IP
 * host (or `localhost`) is an allowed address. The WHATWG parser has already normalised every
 * IPv4 spelling (`0x7f.1`, `2130706433`) to dotted decimal, so those are caught too.
 */
export const checkTargetUrl = (url: string, policy: TargetPolicy): TargetCheck => {
  if (typeof url !== 'string' || url.length === 0) return { ok: false, reason: 'is required' };
  if (url.length > maxTargetUrlLength) return { ok: false, reason: `is longer than ${maxTargetUrlLength} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  const allowed = policy.requireHttps ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(parsed.protocol)) {
    return { ok: false, reason: policy.requireHttps ? 'must use https in live mode' : 'must use http or https' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'must not contain a user name or password' };
  }
  const hostname = bareHostname(parsed);
  if (hostname === '') return { ok: false, reason: 'must have a host' };
  // The parser refuses ports above 65535 but takes 0, which no receiver can listen on.
  if (parsed.port === '0') return { ok: false, reason: 'must have a port from 1 to 65535' };
  if (isIP(hostname) !== 0) {
    if (!isAllowedAddress(hostname, policy)) return { ok: false, reason: refusalReason(hostname) };
  } else if (isLocalhostName(hostname) && !policy.allowPrivate) {
    return { ok: false, reason: `target is ${addressClassLabel('loopback')}` };
  }
  return { ok: true, url: parsed };
};
