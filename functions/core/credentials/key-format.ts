import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Credential values follow GitHub's token format: a type prefix, a random body and a base62 CRC32
 * checksum of everything before it, so a mistyped or truncated value is refused without a lookup.
 */
export const credentialPrefixes = {
  live: 'svc_live_',
  test: 'svc_test_',
  ro: 'svc_ro_',
  pat: 'svc_pat_',
  oauth: 'svc_oauth_',
} as const;

export type CredentialType = keyof typeof credentialPrefixes;

export const credentialTypes = Object.keys(credentialPrefixes) as CredentialType[];

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 30 base62 characters carry about 178 random bits (DESIGN.md asks for at least 128). */
const bodyLength = 30;
const checksumLength = 6;

const toBase62 = (value: number, width: number): string => {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = alphabet[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
};

const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: dropping larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
};

const checksumOf = (text: string): string => toBase62(crc32(text), checksumLength);

/**
 * A value of this format under any prefix: credentials, and the OAuth client ids, client secrets
 * and refresh tokens, which are not credentials of the API but are checked the same way.
 */
export const generatePrefixedValue = (prefix: string): string => {
  const withoutChecksum = prefix + randomBase62(bodyLength);
  return withoutChecksum + checksumOf(withoutChecksum);
};

/** True when `value` is `prefix`, a body of the right length and alphabet, and a matching checksum. */
export const isWellFormedValue = (prefix: string, value: string): boolean => {
  if (!value.startsWith(prefix)) return false;
  const body = value.slice(prefix.length);
  if (body.length !== bodyLength + checksumLength || !/^[0-9A-Za-z]+$/.test(body)) return false;
  return checksumOf(value.slice(0, -checksumLength)) === value.slice(-checksumLength);
};

export const generateCredentialValue = (type: CredentialType): string => generatePrefixedValue(credentialPrefixes[type]);

/** The credential's type when the value is well formed and its checksum matches, else undefined. */
export const parseCredentialValue = (value: string): CredentialType | undefined => {
  const type = credentialTypes.find((t) => value.startsWith(credentialPrefixes[t]));
  return type && isWellFormedValue(credentialPrefixes[type], value) ? type : undefined;
};

/** Only this hash is stored; the value itself is shown once, when it is created. */
export const hashCredentialValue = (value: string): string => createHash('sha256').update(value).digest('hex');

/** What may be shown of a credential later: its prefix and last four characters. */
export const redactCredentialValue = (value: string): string => {
  const type = credentialTypes.find((t) => value.startsWith(credentialPrefixes[t]));
  return `${type ? credentialPrefixes[type] : ''}…${value.slice(-4)}`;
};
