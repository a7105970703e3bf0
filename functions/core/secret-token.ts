import { createHash, randomBytes } from 'node:crypto';

/**
 * A secret handed to a browser or an e-mail (session cookies, one-time links): 256 random bits,
 * base64url. Only its SHA-256 is stored, so a copy of the table holds nothing usable.
 */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

export const hashSecretToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Tokens this service minted have exactly this form; anything else is refused without a lookup. */
export const isSecretTokenShaped = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);
