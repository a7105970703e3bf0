import { decodeTime, encodeTime, ulid } from 'ulid';

export const idPrefixes = {
  account: 'acct_',
  credential: 'key_',
  project: 'proj_',
  workflow: 'wf_',
  webhook: 'wh_',
  event: 'evt_',
  delivery: 'dlv_',
} as const;

export type IdKind = keyof typeof idPrefixes;

/** Prefix + ULID: ids sort by creation time, to the millisecond of `createdAtMs`. */
export const newId = (kind: IdKind, createdAtMs: number): string => `${idPrefixes[kind]}${ulid(createdAtMs)}`;

/**
 * The smallest id of `kind` created at or after `ms`: ids compare as strings in creation order,
 * so a time range becomes a key range.
 */
export const lowestIdAt = (kind: IdKind, ms: number): string => `${idPrefixes[kind]}${encodeTime(ms, 10)}`;

const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export const isId = (kind: IdKind, value: string): boolean =>
  value.startsWith(idPrefixes[kind]) && ulidPattern.test(value.slice(idPrefixes[kind].length));

export const idTime = (id: string): number => decodeTime(id.slice(id.indexOf('_') + 1));
