import type { FieldIssue } from '../errors';

/** NIST SP 800-63B: at least this long; the upper bound keeps a single hash cheap. */
export const minimumPasswordLength = 10;
export const maximumPasswordLength = 256;

let common: Promise<Set<string>> | undefined;
/**
 * zxcvbn's list of about 50,000 most common passwords, lower-cased. Loaded on first use: unpacking
 * it takes a few hundred milliseconds that sign-in and start-up need not pay.
 */
const commonPasswords = (): Promise<Set<string>> =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  ));

/** Why `password` may not be used by the user with `email`, or undefined when it may. */
export const passwordIssue = async (password: string, email: string): Promise<FieldIssue | undefined> => {
  const length = [...password].length;
  if (length < minimumPasswordLength) return { field: 'password', issue: `must be at least ${minimumPasswordLength} characters` };
  if (length > maximumPasswordLength) return { field: 'password', issue: `must be at most ${maximumPasswordLength} characters` };
  const lowered = password.toLowerCase();
  if ((await commonPasswords()).has(lowered)) return { field: 'password', issue: 'is one of the most common passwords; choose another' };
  if (lowered === email.toLowerCase() || lowered === email.toLowerCase().split('@')[0]) {
    return { field: 'password', issue: 'must not be your e-mail address' };
  }
  return undefined;
};
