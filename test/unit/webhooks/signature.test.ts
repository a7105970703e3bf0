import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { generateWebhookSecret, signatureHeader, verifyWebhookSignature } from '../../../functions/core/webhooks/signature';

/** Computed here, independently of the module under test. */
const hmacHex = (secret: string, payload: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(payload, 'utf8')).digest('hex');

const body = JSON.stringify({
  id: 'evt_01JABCDEF',
  type: 'workflow.completed',
  created_at: '2026-11-21T10:00:00.000Z',
  data: { id: 'wf_01J', name: 'Déploiement ✓ 🚀', status: 'completed' },
});
const t = 1_795_000_000;
const secret = 'whsec_current_0123456789abcdefghijklmnopqrstuvwxyz';
const oldSecret = 'whsec_previous_ZYXWVUTSRQPONMLKJIHGFEDCBA987654';

describe('signatureHeader', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole secret>', () => {
    expect(signatureHeader(body, [secret], t)).toBe(`t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`);
  });

  it('matches a fixed vector', () => {
    // printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
    expect(signatureHeader('{"a":1}', ['whsec_test'], 1_700_000_000)).toBe(
      't=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    );
  });

  it('carries one v1 per secret during a rotation, the new secret first', () => {
    const header = signatureHeader(body, [secret, oldSecret], t);
    expect(header).toBe(`t=${t},v1=${hmacHex(secret, `${t}.${body}`)},v1=${hmacHex(oldSecret, `${t}.${body}`)}`);
    expect(header.split(',').filter((part) => part.startsWith('v1='))).toHaveLength(2);
  });

  it('signs afresh for each timestamp', () => {
    expect(signatureHeader(body, [secret], t)).not.toBe(signatureHeader(body, [secret], t + 1));
  });

  it('refuses programming errors', () => {
    expect(() => signatureHeader(body, [], t)).toThrow(RangeError);
    expect(() => signatureHeader(body, [''], t)).toThrow(RangeError);
    expect(() => signatureHeader(body, [secret], 1.5)).toThrow(RangeError);
    expect(() => signatureHeader(body, [secret], -1)).toThrow(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  const rotated = signatureHeader(body, [secret, oldSecret], t);
  const at = { nowSeconds: t + 10 };

  it('accepts a header signed with the secret, for either secret of a rotation', () => {
    expect(verifyWebhookSignature(body, signatureHeader(body, [secret], t), secret, at)).toBe(true);
    expect(verifyWebhookSignature(body, rotated, secret, at)).toBe(true);
    expect(verifyWebhookSignature(body, rotated, oldSecret, at)).toBe(true);
  });

  it('accepts the raw body as a Buffer', () => {
    expect(verifyWebhookSignature(Buffer.from(body, 'utf8'), rotated, secret, at)).toBe(true);
  });

  it('tolerates spaces, upper-case hex and unknown schemes', () => {
    const v1 = hmacHex(secret, `${t}.${body}`);
    expect(verifyWebhookSignature(body, ` t=${t} , v0=deadbeef, v1=${v1.toUpperCase()} `, secret, at)).toBe(true);
    expect(verifyWebhookSignature(body, `v1=${'0'.repeat(64)},v1=${v1},t=${t}`, secret, at)).toBe(true);
  });

  it('refuses a wrong secret and a tampered body', () => {
    expect(verifyWebhookSignature(body, rotated, 'whsec_wrong', at)).toBe(false);
    expect(verifyWebhookSignature(body.replace('completed', 'failed'), rotated, secret, at)).toBe(false);
    expect(verifyWebhookSignature(`${body} `, rotated, secret, at)).toBe(false);
    expect(verifyWebhookSignature(body, rotated, '', at)).toBe(false);
  });

  it('refuses a timestamp beyond the tolerance, in the past or the future', () => {
    const header = signatureHeader(body, [secret], t);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: t + 300 })).toBe(true);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: t + 301 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: t - 301 })).toBe(false);
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: t + 3600, toleranceSeconds: 3600 })).toBe(true);
    // Default clock: a header signed now is accepted, one from ten minutes ago is not.
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(body, signatureHeader(body, [secret], now), secret)).toBe(true);
    expect(verifyWebhookSignature(body, signatureHeader(body, [secret], now - 600), secret)).toBe(false);
  });

  it('refuses a header whose timestamp was changed', () => {
    const header = signatureHeader(body, [secret], t).replace(`t=${t}`, `t=${t + 1}`);
    expect(verifyWebhookSignature(body, header, secret, at)).toBe(false);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['t=abc', 't=abc'],
    ['v1=zz', 'v1=zz'],
    ['missing t', `v1=${hmacHex(secret, `${t}.${body}`)}`],
    ['missing v1', `t=${t}`],
    ['bad v1', `t=${t},v1=zz`],
    ['two t', `t=${t},t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`],
    ['short v1', `t=${t},v1=${hmacHex(secret, `${t}.${body}`).slice(0, 62)}`],
    ['garbage', ',,,===,t,v1'],
    ['huge', `t=${t},${'v0=x,'.repeat(5000)}`],
  ])('refuses a malformed header (%s) without throwing', (_label, header) => {
    expect(verifyWebhookSignature(body, header, secret, at)).toBe(false);
  });

  it('never throws on values of the wrong type', () => {
    const loose = verifyWebhookSignature as (...args: unknown[]) => boolean;
    expect(loose(undefined, `t=${t},v1=00`, secret, at)).toBe(false);
    expect(loose(body, 42, secret, at)).toBe(false);
    expect(loose(body, rotated, undefined, at)).toBe(false);
    expect(loose(body, rotated, secret, { nowSeconds: Number.NaN })).toBe(false);
  });
});

describe("Stripe's own verifier", () => {
  const stripe = new Stripe('sk_test_x');

  it('accepts a header made by signatureHeader (both secrets of a rotation)', () => {
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader(body, [secret, oldSecret], now);
    expect(stripe.webhooks.constructEvent(body, header, secret)).toEqual(JSON.parse(body));
    expect(stripe.webhooks.constructEvent(Buffer.from(body), header, oldSecret)).toEqual(JSON.parse(body));
  });

  it('rejects a wrong secret and a tampered body', () => {
    const header = signatureHeader(body, [secret], Math.floor(Date.now() / 1000));
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_wrong')).toThrow(/No signatures found/);
    expect(() => stripe.webhooks.constructEvent(`${body} `, header, secret)).toThrow(/No signatures found/);
  });

  it('and we accept a header made by Stripe', () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: t });
    expect(verifyWebhookSignature(body, header, secret, { nowSeconds: t })).toBe(true);
  });
});

describe('generateWebhookSecret', () => {
  it('is whsec_ and 32 random bytes in base64url', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const value of secrets) {
      expect(value).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(value.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    }
  });
});
