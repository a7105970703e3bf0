import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Signer } from '../../core/provenance/signer';

/** The local runtime's stand-in for the KMS key: a P-256 private key (PKCS#8 PEM) in a directory. */
export const localSigningKeyFileName = 'provenance-signing-key.pem';

const errorCode = (error: unknown): unknown => (error as NodeJS.ErrnoException | null)?.code;

/** `local:` and the first 16 hex digits of the SHA-256 of the public key's DER SubjectPublicKeyInfo. */
export const localKeyIdOf = (key: KeyObject): string => {
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return `local:${createHash('sha256').update(spki).digest('hex').slice(0, 16)}`;
};

export const publicKeyPemOf = (key: KeyObject): string => createPublicKey(key).export({ format: 'pem', type: 'spki' }).toString();

/** The key in `dir`, or undefined when there is none yet. */
export const readLocalSigningKey = async (dir: string): Promise<KeyObject | undefined> => {
  const file = join(dir, localSigningKeyFileName);
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`${file} does not hold an ECDSA P-256 private key`);
  }
  return key;
};

/**
 * Written whole to a temporary file, then hard-linked into place: link, unlike rename, never
 * replaces a key that another process created meanwhile, and then that key is the one used.
 */
const createLocalSigningKey = async (dir: string): Promise<KeyObject> => {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const temporary = join(dir, `.${localSigningKeyFileName}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, join(dir, localSigningKeyFileName));
    return privateKey;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    const theirs = await readLocalSigningKey(dir);
    if (!theirs) throw error;
    return theirs;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
};

export const loadOrCreateLocalSigningKey = async (dir: string): Promise<KeyObject> =>
  (await readLocalSigningKey(dir)) ?? createLocalSigningKey(dir);

/** Signs with the key in `dir`, creating it (mode 0600) on first use. */
export const localKeySigner = async (dir: string): Promise<Signer> => {
  const key = await loadOrCreateLocalSigningKey(dir);
  const publicKeyPem = publicKeyPemOf(key);
  return {
    keyId: localKeyIdOf(key),
    sign: async (message) => sign('sha256', message, { key, dsaEncoding: 'der' }),
    publicKeyPem: async () => publicKeyPem,
  };
};
