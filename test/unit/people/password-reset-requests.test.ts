import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { passwordResetRequestItem } from '../../../functions/adapters/dynamodb/password-reset-request-store';
import { findUsableLink } from '../../../functions/core/users/password-links';
import {
  type PasswordResetRequest,
  requestPasswordReset,
  sendRequestedPasswordReset,
} from '../../../functions/core/users/password-reset-requests';
import type { Mailer } from '../../../functions/core/webhooks/delivery';
import { passwordResetEmails } from '../../../functions/handlers/workers/password-reset-emails';
import { peopleWithAdmin } from './people-fixture';

const origin = 'http://127.0.0.1:3410';
const tokenIn = (text: string): string => /token=([\w-]+)/.exec(text)![1]!;

/** The requests recorded so far, taken off the fake stream. */
const takeRequests = (env: Awaited<ReturnType<typeof peopleWithAdmin>>): PasswordResetRequest[] => env.resetRequests.inserted.splice(0);

/** A mailer that fails its first `failures` sends, then sends (into `sent`). */
const failingMailer = (failures: number): Mailer & { sent: { to: string; text: string }[] } => {
  const sent: { to: string; text: string }[] = [];
  let calls = 0;
  return {
    sent,
    async send(message) {
      calls += 1;
      if (calls <= failures) throw new Error('SES: service unavailable');
      sent.push({ to: message.to, text: message.text });
    },
  };
};

describe('"forgot password" requests, e-mailed from the stream', () => {
  it('records the normalized address and the origin, no token, one per request, and nothing for what is no address', async () => {
    const env = await peopleWithAdmin();
    await requestPasswordReset({ email: '  ALICE@acme.test ', origin }, env);
    await requestPasswordReset({ email: 'not an address', origin }, env);
    await requestPasswordReset({ email: `${'a'.repeat(300)}@acme.test`, origin }, env);
    const [request, ...others] = [...env.resetRequests.stored.values()];
    expect(others).toEqual([]);
    expect(Object.keys(request!).sort()).toEqual(['created_at', 'email', 'expires_at', 'id', 'origin']);
    expect(request).toMatchObject({ email: 'alice@acme.test', origin });
    expect(Date.parse(request!.expires_at) - Date.parse(request!.created_at)).toBe(3_600_000);
    // Only the real address was counted against the limit.
    expect(env.throttle.counters.size).toBe(1);
    expect(env.links.links.size).toBe(0);
  });

  it('a request delivered twice, in a row or at once, sends one e-mail with one working link', async () => {
    const env = await peopleWithAdmin();
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    const [inRow, atOnce] = takeRequests(env);
    expect(await sendRequestedPasswordReset(inRow!, env)).toBe('sent');
    expect(await sendRequestedPasswordReset(inRow!, env)).toBe('handled');
    expect(await Promise.all([sendRequestedPasswordReset(atOnce!, env), sendRequestedPasswordReset(atOnce!, env)])).toEqual(
      expect.arrayContaining(['sent', 'handled']),
    );
    expect(env.mailer.sent).toHaveLength(2);
    expect(env.links.links.size).toBe(2);
    expect(env.resetRequests.stored.size).toBe(0);
    for (const mail of env.mailer.sent) {
      expect(mail.to).toBe('alice@acme.test');
      expect(await findUsableLink(tokenIn(mail.text), env)).toMatchObject({
        link: { purpose: 'reset_password' },
        user: { id: env.admin.id },
      });
    }
  });

  it('a send that fails takes its unsent link back and leaves the request for the retry, which sends it once', async () => {
    const env = await peopleWithAdmin();
    const mailer = failingMailer(1);
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    const [request] = takeRequests(env);
    await expect(sendRequestedPasswordReset(request!, { ...env, mailer })).rejects.toThrow('SES: service unavailable');
    expect(env.links.links.size).toBe(0);
    expect(env.resetRequests.stored.get(request!.id)).toEqual(request);

    expect(await sendRequestedPasswordReset(request!, { ...env, mailer })).toBe('sent');
    expect(await sendRequestedPasswordReset(request!, { ...env, mailer })).toBe('handled');
    expect(mailer.sent).toHaveLength(1);
    expect(await findUsableLink(tokenIn(mailer.sent[0]!.text), env)).toBeDefined();
  });

  it('an unknown address only removes its request; a request past its hour is dropped unsent', async () => {
    const env = await peopleWithAdmin();
    await requestPasswordReset({ email: 'nobody@acme.test', origin }, env);
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    const [unknown, late] = takeRequests(env);
    expect(await sendRequestedPasswordReset(unknown!, env)).toBe('no_user');
    env.clock.advance(3_600_000);
    expect(await sendRequestedPasswordReset(late!, env)).toBe('expired');
    expect(env.mailer.sent).toEqual([]);
    expect(env.links.links.size).toBe(0);
    expect(env.resetRequests.stored.size).toBe(0);
  });
});

describe('workers/password-reset-emails', () => {
  /** The stream record of a request's item, as Lambda hands it over. */
  const insertOf = (request: PasswordResetRequest, sequence: string): DynamoDBRecord => ({
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: sequence,
      NewImage: marshall(passwordResetRequestItem(request)) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  });

  it('fails the batch at the first request not sent; the batch read again from there sends the rest, none twice', async () => {
    const env = await peopleWithAdmin();
    const { createUser } = await import('../../../functions/core/users/manage-users');
    await createUser({ email: 'bob@acme.test', accountId: env.account.id, role: 'viewer', password: 'bob pass phrase' }, env);
    for (const email of ['alice@acme.test', 'bob@acme.test', 'nobody@acme.test']) await requestPasswordReset({ email, origin }, env);
    const records = takeRequests(env).map((request, i) => insertOf(request, String(100 + i)));
    // Bob's e-mail fails once: Alice's went before it.
    let calls = 0;
    const sent: string[] = [];
    const mailer: Mailer = {
      async send(message) {
        calls += 1;
        if (calls === 2) throw new Error('SES: throttled');
        sent.push(message.to);
      },
    };
    const handle = passwordResetEmails({ ...env, mailer });
    const modify = { ...records[0]!, eventName: 'MODIFY' as const };
    expect(await handle({ Records: [...records, modify] })).toEqual({ batchItemFailures: [{ itemIdentifier: '101' }] });
    expect(sent).toEqual(['alice@acme.test']);
    expect(await handle({ Records: records.slice(1) })).toEqual({ batchItemFailures: [] });
    expect(await handle({ Records: records })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual(['alice@acme.test', 'bob@acme.test']);
    expect(env.resetRequests.stored.size).toBe(0);
  });

  it('passes over a request item it cannot read, without a failure', async () => {
    const env = await peopleWithAdmin();
    const handle = passwordResetEmails(env);
    const record: DynamoDBRecord = {
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: '1', NewImage: { entity: { S: 'password_reset_request' }, id: { S: 'r' } } },
    };
    expect(await handle({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(env.mailer.sent).toEqual([]);
  });
});
