import { createHash } from 'node:crypto';
import { decodeTime, encodeTime, monotonicFactory, ulid } from 'ulid';

export const idPrefixes = {
  account: 'acct_',
  user: 'usr_',
  invitation: 'inv_',
  session: 'ses_',
  oauthGrant: 'grt_',
  auditRecord: 'aud_',
  credential: 'key_',
  project: 'proj_',
  workflow: 'wf_',
  webhook: 'wh_',
  event: 'evt_',
  delivery: 'dlv_',
  scan: 'scan_',
  finding: 'fnd_',
  deployment: 'dep_',
  testSuite: 'test_',
  testRun: 'run_',
  review: 'rev_',
  reviewComment: 'rvc_',
} as const;

export type IdKind = keyof typeof idPrefixes;

/** Prefix + ULID: ids sort by creation time, to the millisecond of `createdAtMs`. */
export const newId = (kind: IdKind, createdAtMs: number): string => `${idPrefixes[kind]}${ulid(createdAtMs)}`;

/** Ids of one kind that sort in the order they are made, within the same millisecond too. */
export const orderedIds = (kind: IdKind): ((createdAtMs: number) => string) => {
  const next = monotonicFactory();
  return (createdAtMs) => `${idPrefixes[kind]}${next(createdAtMs)}`;
};

/**
 * The smallest id of `kind` created at or after `ms`: ids compare as strings in creation order,
 * so a time range becomes a key range.
 */
export const lowestIdAt = (kind: IdKind, ms: number): string => `${idPrefixes[kind]}${encodeTime(ms, 10)}`;

/** What an id of `kind` looks like: its prefix and a ULID (Crockford base 32, no I, L, O or U). */
export const idPattern = (kind: IdKind): RegExp => new RegExp(`^${idPrefixes[kind]}[0-9A-HJKMNP-TV-Z]{26}$`);

const idPatterns = new Map<IdKind, RegExp>();

export const isId = (kind: IdKind, value: string): boolean => {
  let pattern = idPatterns.get(kind);
  if (!pattern) idPatterns.set(kind, (pattern = idPattern(kind)));
  return pattern.test(value);
};

export const idTime = (id: string): number => decodeTime(id.slice(id.indexOf('_') + 1));

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The smallest id that sorts after `id` (its ULID plus one, in Crockford base 32): a key range
 * that starts there holds exactly the ids after `id`. Undefined for the largest ULID there is.
 */
export const idAfter = (id: string): string | undefined => {
  const split = id.indexOf('_') + 1;
  const digits = id.slice(split).split('');
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const value = crockford.indexOf(digits[i] as string);
    if (value < crockford.length - 1) {
      digits[i] = crockford[value + 1] as string;
      return id.slice(0, split) + digits.join('');
    }
    digits[i] = '0';
  }
  return undefined;
};

/**
 * An id that is the same every time for the same `seed`: prefix + ULID whose time is `createdAtMs`
 * and whose random part comes from a hash. Lets a step that may run twice write the same item.
 */
export const derivedId = (kind: IdKind, createdAtMs: number, seed: string): string => {
  const digest = createHash('sha256').update(seed).digest();
  let random = '';
  for (let i = 0; i < 16; i += 1) random += crockford[(digest[i] as number) % 32];
  return `${idPrefixes[kind]}${encodeTime(createdAtMs, 10)}${random}`;
};
