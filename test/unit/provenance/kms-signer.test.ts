import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetPublicKeyCommand, KMSClient, SignCommand, type SignCommandInput } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { kmsRawMessageLimit, kmsSignInput, kmsSigner } from '../../../functions/adapters/signing/kms-signer';
import { preAuthEncoding, inTotoPayloadType, signEnvelope, verifyEnvelope } from '../../../functions/core/provenance/dsse';
import { largeStatement, sampleStatement } from './fixtures';

/**
 * KMS replaced by aws-sdk-client-mock, signing with a real P-256 key the way KMS does: RAW
 * messages are hashed with SHA-256 and signed; DIGEST messages are signed as they are (done with
 * `openssl pkeyutl`, since node:crypto always hashes what it signs). Signatures are DER.
 */

const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const publicKeyPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
const kms = mockClient(KMSClient);
let dir: string;
let privateKeyFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kms-signer-'));
  privateKeyFile = join(dir, 'key.pem');
  await writeFile(privateKeyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const signLikeKms = (input: SignCommandInput) => {
  const message = Buffer.from(input.Message ?? []);
  const signature =
    input.MessageType === 'DIGEST'
      ? execFileSync('openssl', ['pkeyutl', '-sign', '-inkey', privateKeyFile], { input: message })
      : sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
  return { KeyId: keyArn, Signature: new Uint8Array(signature), SigningAlgorithm: 'ECDSA_SHA_256' as const };
};

beforeEach(() => {
  kms.reset();
  kms.on(SignCommand).callsFake(signLikeKms);
  kms.on(GetPublicKeyCommand).resolves({
    KeyId: keyArn,
    KeySpec: 'ECC_NIST_P256',
    KeyUsage: 'SIGN_VERIFY',
    PublicKey: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })),
  });
});

describe('kmsSignInput', () => {
  it('sends messages of up to 4096 bytes as RAW', () => {
    const message = Buffer.alloc(kmsRawMessageLimit, 'a');

    expect(kmsSignInput(keyArn, message)).toEqual({
      KeyId: keyArn,
      Message: message,
      MessageType: 'RAW',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  });

  it('sends the SHA-256 digest, as a DIGEST, of longer messages', () => {
    const message = Buffer.alloc(kmsRawMessageLimit + 1, 'a');

    expect(kmsSignInput(keyArn, message)).toEqual({
      KeyId: keyArn,
      Message: createHash('sha256').update(message).digest(),
      MessageType: 'DIGEST',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  });
});

describe('kmsSigner', () => {
  it('signs an envelope that verifies with the public key KMS gives', async () => {
    const signer = kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn);
    const statement = sampleStatement();

    const envelope = await signEnvelope(statement, signer);

    const [call] = kms.commandCalls(SignCommand);
    expect(call?.args[0].input).toMatchObject({ KeyId: keyArn, MessageType: 'RAW', SigningAlgorithm: 'ECDSA_SHA_256' });
    expect(envelope.signatures[0]?.keyid).toBe(keyArn);
    expect(await signer.publicKeyPem()).toBe(publicKeyPem);
    expect(verifyEnvelope(envelope, await signer.publicKeyPem())).toEqual({ valid: true, statement, keyid: keyArn });
  });

  it('signs a statement too long for RAW through its digest, and it still verifies', async () => {
    const signer = kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn);
    const statement = largeStatement(2 * kmsRawMessageLimit);

    const envelope = await signEnvelope(statement, signer);

    const pae = preAuthEncoding(inTotoPayloadType, Buffer.from(envelope.payload, 'base64'));
    expect(pae.length).toBeGreaterThan(kmsRawMessageLimit);
    const input = kms.commandCalls(SignCommand)[0]?.args[0].input;
    expect(input?.MessageType).toBe('DIGEST');
    expect(Buffer.from(input?.Message ?? []).equals(createHash('sha256').update(pae).digest())).toBe(true);
    expect(verifyEnvelope(envelope, publicKeyPem)).toMatchObject({ valid: true, statement });
  });

  it('asks KMS for the public key once', async () => {
    const signer = kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn);

    await signer.publicKeyPem();
    await signer.publicKeyPem();

    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(kms.commandCalls(GetPublicKeyCommand)[0]?.args[0].input).toEqual({ KeyId: keyArn });
  });

  it('asks again after a failure', async () => {
    kms
      .on(GetPublicKeyCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ KeySpec: 'ECC_NIST_P256', PublicKey: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })) });
    const signer = kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn);

    await expect(signer.publicKeyPem()).rejects.toThrow('throttled');
    expect(await signer.publicKeyPem()).toBe(publicKeyPem);
  });

  it('refuses a key of another spec', async () => {
    kms.on(GetPublicKeyCommand).resolves({ KeySpec: 'RSA_2048', PublicKey: new Uint8Array([1]) });

    await expect(kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn).publicKeyPem()).rejects.toThrow(
      'is RSA_2048, not ECC_NIST_P256',
    );
  });

  it('fails when KMS returns no signature', async () => {
    kms.on(SignCommand).resolves({});

    await expect(kmsSigner(new KMSClient({ region: 'eu-west-1' }), keyArn).sign(Buffer.from('x'))).rejects.toThrow('no signature');
  });
});
