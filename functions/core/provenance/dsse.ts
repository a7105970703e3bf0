import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Signer } from './signer';
import { statementType, type InTotoStatement } from './statement';

/**
 * DSSE (https://github.com/secure-systems-lab/dsse/blob/master/protocol.md): the signature covers
 * the pre-authentication encoding (PAE) of the payload type and the payload bytes, never the JSON
 * of the envelope, so verifying needs no canonical JSON.
 */

export const inTotoPayloadType = 'application/vnd.in-toto+json';

export interface DsseSignature {
  keyid: string;
  /** Base64 of the DER ECDSA signature. */
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** Base64 of the payload bytes (the statement's JSON). */
  payload: string;
  signatures: DsseSignature[];
}

export interface EnvelopeVerification {
  valid: boolean;
  /** The signed statement, only when `valid`. */
  statement?: InTotoStatement;
  /** The keyid of the signature that verified, only when `valid`. */
  keyid?: string;
  /** Why it is not valid. */
  reason?: string;
}

/** `DSSEv1 <len(type)> <type> <len(body)> <body>`, lengths in bytes as ASCII decimals. */
export const preAuthEncoding = (payloadType: string, payload: Buffer): Buffer => {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'utf8'), type, Buffer.from(` ${payload.length} `, 'utf8'), payload]);
};

export const signEnvelope = async (statement: InTotoStatement, signer: Signer): Promise<DsseEnvelope> => {
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const signature = await signer.sign(preAuthEncoding(inTotoPayloadType, payload));
  return {
    payloadType: inTotoPayloadType,
    payload: payload.toString('base64'),
    signatures: [{ keyid: signer.keyId, sig: signature.toString('base64') }],
  };
};

const isEnvelope = (value: unknown): value is DsseEnvelope => {
  const envelope = value as Partial<DsseEnvelope> | null;
  return (
    typeof envelope === 'object' &&
    envelope !== null &&
    typeof envelope.payloadType === 'string' &&
    typeof envelope.payload === 'string' &&
    Array.isArray(envelope.signatures) &&
    envelope.signatures.every((s: unknown) => typeof (s as DsseSignature | null)?.sig === 'string')
  );
};

/** Throws when the PEM is not a P-256 public key: a wrong key type is a setup error, not a forgery. */
const p256PublicKey = (publicKeyPem: string): KeyObject => {
  const key = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new TypeError('the public key is not an ECDSA P-256 key');
  }
  return key;
};

const parseStatement = (payload: Buffer): InTotoStatement | undefined => {
  try {
    const statement = JSON.parse(payload.toString('utf8')) as Partial<InTotoStatement> | null;
    return statement?._type === statementType ? (statement as InTotoStatement) : undefined;
  } catch {
    return undefined;
  }
};

const signatureVerifies = (pae: Buffer, key: KeyObject, sig: string): boolean => {
  try {
    return verify('sha256', pae, { key, dsaEncoding: 'der' }, Buffer.from(sig, 'base64'));
  } catch {
    return false; // malformed DER
  }
};

/** Valid when any signature verifies with the key; `keyid` is only a hint and is not trusted. */
export const verifyEnvelope = (envelope: unknown, publicKeyPem: string): EnvelopeVerification => {
  const key = p256PublicKey(publicKeyPem);
  if (!isEnvelope(envelope)) return { valid: false, reason: 'not a DSSE envelope' };
  if (envelope.payloadType !== inTotoPayloadType) return { valid: false, reason: `unexpected payloadType "${envelope.payloadType}"` };
  const payload = Buffer.from(envelope.payload, 'base64');
  const pae = preAuthEncoding(envelope.payloadType, payload);
  const signed = envelope.signatures.find((s) => signatureVerifies(pae, key, s.sig));
  if (!signed) return { valid: false, reason: 'no signature verifies with this key' };
  const statement = parseStatement(payload);
  if (!statement) return { valid: false, reason: `the payload is not an in-toto Statement (${statementType})` };
  return { valid: true, statement, keyid: signed.keyid };
};
