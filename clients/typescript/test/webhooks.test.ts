import {
  constructEvent,
  ServiceError,
  signPayload,
  verifySignature,
  WebhookSignatureError,
  type ServiceEvent,
} from '@project-automation-service/sdk';
import { signatureHeader } from '../../../functions/core/webhooks/signature';

const secret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const event = {
  id: 'evt_01JD2Q9R7W3T0N8M4K6H5G2F1E',
  type: 'workflow.completed',
  created_at: '2026-11-21T10:00:00.000Z',
  data: { workflow_id: 'wf_1', project_id: 'proj_1', status: 'completed', name: 'Déploiement ✓ 🚀' },
};
const body = JSON.stringify(event);
const now = 1_800_000_000;

describe('webhooks.constructEvent', () => {
  it("takes the header as node's IncomingHttpHeaders gives it: a string, or a list of its lines", async () => {
    const body = '{"id":"evt_1","type":"workflow.completed","created_at":"2026-01-01T00:00:00.000Z","data":{}}';
    const now = 1_800_000_000;
    const header = await signPayload(body, ['whsec_one'], now);
    const [time, signature] = header.split(',') as [string, string];
    expect(await verifySignature(body, [time, signature], 'whsec_one', { nowSeconds: now })).toBe(true);
    expect(await verifySignature(body, [time], 'whsec_one', { nowSeconds: now })).toBe(false);
    expect(await verifySignature(body, undefined, 'whsec_one', { nowSeconds: now })).toBe(false);
  });

  it("verifies the service's own signature and answers the typed event", async () => {
    const header = signatureHeader(body, [secret], now);
    const verified: ServiceEvent = await constructEvent(body, header, secret, { nowSeconds: now + 10 });
    expect(verified).toEqual(event);
    if (verified.type === 'workflow.completed') expect(verified.data.workflow_id).toBe('wf_1');
    // Raw bytes work as well as text.
    expect(await constructEvent(new TextEncoder().encode(body), header, secret, { nowSeconds: now })).toEqual(event);
  });

  it('throws a ServiceError, not a SyntaxError, for a verified body that is not JSON', async () => {
    const notJson = 'hello, not an event';
    const attempt = constructEvent(notJson, signatureHeader(notJson, [secret], now), secret, { nowSeconds: now });
    await expect(attempt).rejects.toThrow(ServiceError);
    await expect(attempt).rejects.not.toThrow(WebhookSignatureError);
    await expect(attempt).rejects.toThrow('signed with this secret but is not a JSON event');
  });

  it('signs exactly as the service does', async () => {
    expect(await signPayload(body, [secret, 'whsec_old'], now)).toBe(signatureHeader(body, [secret, 'whsec_old'], now));
  });

  it('accepts any one of several v1 values (a secret being rotated), in either order', async () => {
    const header = signatureHeader(body, ['whsec_new_one', secret], now);
    expect(await verifySignature(body, header, secret, { nowSeconds: now })).toBe(true);
    expect(await verifySignature(body, header, 'whsec_new_one', { nowSeconds: now })).toBe(true);
    expect(await verifySignature(body, header, 'whsec_another', { nowSeconds: now })).toBe(false);
  });

  it('refuses a stale or future timestamp outside the tolerance, and takes a tolerance of its own', async () => {
    const header = signatureHeader(body, [secret], now);
    expect(await verifySignature(body, header, secret, { nowSeconds: now + 301 })).toBe(false);
    expect(await verifySignature(body, header, secret, { nowSeconds: now - 301 })).toBe(false);
    expect(await verifySignature(body, header, secret, { nowSeconds: now + 300 })).toBe(true);
    expect(await verifySignature(body, header, secret, { nowSeconds: now + 1000, tolerance: 1000 })).toBe(true);
    await expect(constructEvent(body, header, secret, { nowSeconds: now + 10, tolerance: 5 })).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it.each([
    ['an altered body', body.replace('completed', 'failed'), undefined],
    ['a body re-serialised with other spacing', JSON.stringify(event, null, 2), undefined],
    ['a missing header', body, null],
    ['an empty header', body, ''],
    ['no v1 value', body, `t=${now}`],
    ['two timestamps', body, `t=${now},t=${now},v1=${'0'.repeat(64)}`],
    ['a v1 that is not hex', body, `t=${now},v1=${'z'.repeat(64)}`],
    ['an overlong header', body, `t=${now},${'v0=x,'.repeat(3000)}`],
  ])('refuses %s', async (_what, received, header) => {
    const sent = header === undefined ? signatureHeader(body, [secret], now) : header;
    await expect(constructEvent(received, sent, secret, { nowSeconds: now })).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it.each([
    ['a missing header', body, null, secret, /^No X-Service-Signature header: pass the delivery's own header/],
    ['a malformed header', body, 'sha256=abc', secret, /^The X-Service-Signature header is not "t=<unix seconds>,v1=/],
    ['no secret (an unset environment variable)', body, 'signed', undefined, /^No secret given: pass the webhook's signing secret/],
    ['the wrong secret', body, 'signed', 'whsec_other', /^No v1 signature matches this body under this secret/],
    ['a re-serialised body', JSON.stringify(event, null, 2), 'signed', secret, /the raw body bytes as received/],
    ['a parsed body', event, 'signed', secret, /^The body must be the raw body as received/],
  ])('says what to do about %s', async (_what, received, header, key, message) => {
    const sent = header === 'signed' ? signatureHeader(body, [secret], now) : header;
    await expect(constructEvent(received as string, sent, key as string, { nowSeconds: now })).rejects.toThrow(message);
  });

  it('says how far off a stale timestamp is', async () => {
    const header = signatureHeader(body, [secret], now);
    await expect(constructEvent(body, header, secret, { nowSeconds: now + 301 })).rejects.toThrow(
      "The signature was made 301 s ago, beyond the tolerance of 300 s: an old delivery replayed, or this machine's clock is off.",
    );
    await expect(constructEvent(body, header, secret, { nowSeconds: now - 400 })).rejects.toThrow('400 s in the future');
  });

  it('signs with one secret given as a string, at the current time by default', async () => {
    const before = Math.floor(Date.now() / 1000);
    const header = await signPayload(body, secret);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Number(/^t=(\d+)/.exec(header)?.[1])).toBeGreaterThanOrEqual(before);
    expect(await constructEvent(body, header, secret)).toEqual(event);
    expect(await signPayload(body, secret, now)).toBe(signatureHeader(body, [secret], now));
    await expect(signPayload(body, [], now)).rejects.toThrow(TypeError);
    await expect(signPayload(body, secret, '1800000000' as unknown as number)).rejects.toThrow('unix seconds, a whole number');
  });

  it('refuses the right signature under the wrong secret', async () => {
    const header = signatureHeader(body, [secret], now);
    await expect(constructEvent(body, header, `${secret}x`, { nowSeconds: now })).rejects.toThrow(WebhookSignatureError);
  });
});
