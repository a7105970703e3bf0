import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localKeySigner, localSigningKeyFileName, readLocalSigningKey } from '../../../functions/adapters/signing/local-key-signer';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'local-signer-'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('localKeySigner', () => {
  it('creates a P-256 PKCS#8 key, readable by its owner only, in a directory it creates', async () => {
    const dir = join(base, 'nested', 'signing');
    await localKeySigner(dir);

    const file = join(dir, localSigningKeyFileName);
    const pem = await readFile(file, 'utf8');
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(createPrivateKey(pem).asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual([localSigningKeyFileName]);
  });

  it('names the key local:<first 16 hex of the SHA-256 of its DER SubjectPublicKeyInfo> and keeps it', async () => {
    const first = await localKeySigner(base);
    const again = await localKeySigner(base);

    const spki = createPublicKey(await first.publicKeyPem()).export({ format: 'der', type: 'spki' });
    expect(first.keyId).toBe(`local:${createHash('sha256').update(spki).digest('hex').slice(0, 16)}`);
    expect(first.keyId).toMatch(/^local:[0-9a-f]{16}$/);
    expect(again.keyId).toBe(first.keyId);
    expect(await again.publicKeyPem()).toBe(await first.publicKeyPem());
  });

  it('signs with DER ECDSA over SHA-256 of the message', async () => {
    const signer = await localKeySigner(base);
    const message = Buffer.from('DSSEv1 4 type 7 payload');

    const signature = await signer.sign(message);

    expect(signature[0]).toBe(0x30); // a DER SEQUENCE, not the 64-byte IEEE P1363 form
    expect(verify('sha256', message, { key: await signer.publicKeyPem(), dsaEncoding: 'der' }, signature)).toBe(true);
  });

  it('ends up with one key when several start at once, and leaves no temporary file', async () => {
    const signers = await Promise.all(Array.from({ length: 8 }, () => localKeySigner(base)));

    expect(new Set(signers.map((s) => s.keyId)).size).toBe(1);
    expect(await readdir(base)).toEqual([localSigningKeyFileName]);
  });

  it('uses a key that another process created meanwhile', async () => {
    const theirs = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    await writeFile(join(base, localSigningKeyFileName), theirs.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });

    const signer = await localKeySigner(base);

    expect(await signer.publicKeyPem()).toBe(createPublicKey(theirs).export({ format: 'pem', type: 'spki' }));
  });

  it('refuses a key file that does not hold a P-256 key', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await writeFile(join(base, localSigningKeyFileName), rsa.export({ format: 'pem', type: 'pkcs8' }));

    await expect(localKeySigner(base)).rejects.toThrow('does not hold an ECDSA P-256 private key');
  });
});

describe('readLocalSigningKey', () => {
  it('is undefined, and creates nothing, when there is no key yet', async () => {
    await mkdir(join(base, 'empty'));

    expect(await readLocalSigningKey(join(base, 'empty'))).toBeUndefined();
    expect(await readLocalSigningKey(join(base, 'missing'))).toBeUndefined();
    expect(await readdir(base)).toEqual(['empty']);
  });
});
