import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localKeySigner } from '../../../functions/adapters/signing/local-key-signer';
import {
  inTotoPayloadType,
  preAuthEncoding,
  signEnvelope,
  verifyEnvelope,
  type DsseEnvelope,
} from '../../../functions/core/provenance/dsse';
import type { Signer } from '../../../functions/core/provenance/signer';
import { sampleStatement } from './fixtures';

let dir: string;
let signer: Signer;
let publicKeyPem: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsse-'));
  signer = await localKeySigner(dir);
  publicKeyPem = await signer.publicKeyPem();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const otherP256Pem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ format: 'pem', type: 'spki' }).toString();

const withPayload = (envelope: DsseEnvelope, edit: (statement: Record<string, unknown>) => void): DsseEnvelope => {
  const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Record<string, unknown>;
  edit(statement);
  return { ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64') };
};

describe('preAuthEncoding', () => {
  it("matches the DSSE specification's example", () => {
    expect(preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it('counts bytes, not characters', () => {
    expect(preAuthEncoding('t', Buffer.from('é✓', 'utf8')).toString('utf8')).toBe('DSSEv1 1 t 5 é✓');
  });
});

describe('signEnvelope and verifyEnvelope', () => {
  it('round-trips: the envelope carries the statement and a DER ECDSA P-256 signature over the PAE', async () => {
    const statement = sampleStatement();
    const envelope = await signEnvelope(statement, signer);

    expect(envelope.payloadType).toBe(inTotoPayloadType);
    expect(JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'))).toEqual(statement);
    expect(envelope.signatures).toEqual([{ keyid: signer.keyId, sig: expect.any(String) }]);
    const pae = preAuthEncoding(inTotoPayloadType, Buffer.from(envelope.payload, 'base64'));
    expect(verify('sha256', pae, { key: publicKeyPem, dsaEncoding: 'der' }, Buffer.from(envelope.signatures[0]!.sig, 'base64'))).toBe(true);

    expect(verifyEnvelope(envelope, publicKeyPem)).toEqual({ valid: true, statement, keyid: signer.keyId });
  });

  it('survives a JSON round trip of the envelope itself', async () => {
    const envelope = JSON.parse(JSON.stringify(await signEnvelope(sampleStatement(), signer))) as unknown;

    expect(verifyEnvelope(envelope, publicKeyPem).valid).toBe(true);
  });

  it('fails when the payload was changed', async () => {
    const envelope = await signEnvelope(sampleStatement(), signer);
    const tampered = withPayload(envelope, (statement) => {
      (statement.subject as Array<{ digest: { sha256: string } }>)[0]!.digest.sha256 = 'f'.repeat(64);
    });

    expect(verifyEnvelope(tampered, publicKeyPem)).toEqual({ valid: false, reason: 'no signature verifies with this key' });
  });

  it('fails when the payload type was changed, since the PAE covers it', async () => {
    const envelope = await signEnvelope(sampleStatement(), signer);

    expect(verifyEnvelope({ ...envelope, payloadType: 'application/json' }, publicKeyPem).valid).toBe(false);
  });

  it('fails with another key', async () => {
    const envelope = await signEnvelope(sampleStatement(), signer);

    expect(verifyEnvelope(envelope, otherP256Pem())).toEqual({ valid: false, reason: 'no signature verifies with this key' });
  });

  it('is valid when any of several signatures verifies, whatever the keyids say', async () => {
    const envelope = await signEnvelope(sampleStatement(), signer);
    const good = envelope.signatures[0]!;
    const withJunk = {
      ...envelope,
      signatures: [
        { keyid: good.keyid, sig: Buffer.from('not DER').toString('base64') },
        { keyid: 'other', sig: good.sig },
      ],
    };

    expect(verifyEnvelope(withJunk, publicKeyPem)).toMatchObject({ valid: true, keyid: 'other' });
  });

  it('refuses what is not an envelope, and a signed payload that is not an in-toto statement', async () => {
    const notAStatement = Buffer.from('{"hello":"world"}');
    const sig = (await signer.sign(preAuthEncoding(inTotoPayloadType, notAStatement))).toString('base64');

    expect(verifyEnvelope({ payload: 'x' }, publicKeyPem)).toEqual({ valid: false, reason: 'not a DSSE envelope' });
    expect(verifyEnvelope(null, publicKeyPem).valid).toBe(false);
    expect(
      verifyEnvelope(
        { payloadType: inTotoPayloadType, payload: notAStatement.toString('base64'), signatures: [{ keyid: '', sig }] },
        publicKeyPem,
      ),
    ).toEqual({
      valid: false,
      reason: 'the payload is not an in-toto Statement (https://in-toto.io/Statement/v1)',
    });
  });

  it('throws for a key that is not ECDSA P-256', async () => {
    const envelope = await signEnvelope(sampleStatement(), signer);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ format: 'pem', type: 'spki' }).toString();

    expect(() => verifyEnvelope(envelope, rsa)).toThrow('not an ECDSA P-256 key');
    expect(() => verifyEnvelope(envelope, p384)).toThrow('not an ECDSA P-256 key');
  });
});
