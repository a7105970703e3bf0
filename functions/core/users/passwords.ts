import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as scrypt hashes (node:crypto; Argon2's native addon cannot be built for
 * Lambda here). The stored text names its parameters, so they can be raised later and old hashes
 * still verify: `scrypt$N=32768,r=8,p=3$<salt>$<hash>` (base64url), OWASP's scrypt setting of
 * 32 MiB and three lanes.
 */
const current = { N: 2 ** 15, r: 8, p: 3 };
const keyLength = 32;

const derive = (password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, current);
  return `scrypt$N=${current.N},r=${current.r},p=${current.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
};

const parse = (stored: string) => {
  const match = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return undefined;
  const [, N, r, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  return { params: { N: Number(N), r: Number(r), p: Number(p) }, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
};

/** A hash of no password at all: compared against when no user has the e-mail, so both take as long. */
let decoy: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(24).toString('base64url')));
