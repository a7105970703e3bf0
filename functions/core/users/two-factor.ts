import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { User } from './user';

/**
 * Two-factor sign-in with TOTP (RFC 6238: 6 digits, 30 s, SHA-1, as every authenticator app
 * reads it) and single-use recovery codes. A code is accepted one step either side of now, and
 * never twice (the step last accepted is stored).
 */
export const totpIssuer = 'Project Automation Service';
const toleranceSeconds = 30;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (secret: string, email: string): string => generateURI({ issuer: totpIssuer, label: email, secret });

/** The time step of a valid code not used before, or undefined. */
export const verifyTotp = async (secret: string, code: string, nowMs: number, lastStep: number | null): Promise<number | undefined> => {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: toleranceSeconds,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : undefined;
};

/** Ten codes of 10 lower-case letters and digits in two groups: `k3m9x-q2w7p`. */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
export const newRecoveryCodes = (count = 10): string[] =>
  Array.from({ length: count }, () => {
    const chars = [...randomBytes(10)].map((byte) => recoveryAlphabet[byte % recoveryAlphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });

export const hashRecoveryCode = (code: string): string =>
  createHash('sha256')
    .update(
      code
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
    )
    .digest('hex');

/** The index of the stored hash this recovery code matches, or -1. */
export const matchRecoveryCode = (user: User, code: string): number => {
  const presented = Buffer.from(hashRecoveryCode(code), 'hex');
  return user.recovery_code_hashes.findIndex((stored) => timingSafeEqual(Buffer.from(stored, 'hex'), presented));
};

export const looksLikeRecoveryCode = (code: string): boolean => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(code.trim());
