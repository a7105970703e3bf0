import { apiErrorOf } from '../fakes/api-error';
import { startSession, resolveSession } from '../../../functions/core/sessions/manage-sessions';
import { createUser } from '../../../functions/core/users/manage-users';
import { findUsableLink, LinkUnusable, setPasswordWithLink } from '../../../functions/core/users/password-links';
import { requestPasswordReset } from '../../../functions/core/users/password-reset-requests';
import { verifyPassword } from '../../../functions/core/users/passwords';
import { deliverResetRequests, from, peopleWithAdmin } from './people-fixture';
import { statusOf } from '../../../functions/http/error-status';

const origin = 'https://auth.acme.test';
const tokenIn = (text: string): string => /token=([\w-]+)/.exec(text)![1]!;

describe('one-time links', () => {
  it('a new user without a password gets a set-password link for 24 hours, usable once', async () => {
    const env = await peopleWithAdmin();
    const created = await createUser({ email: 'bob@acme.test', accountId: env.account.id, role: 'viewer' }, env);
    expect(created.user.password_set).toBe(false);
    const token = created.link!.token;
    expect(Date.parse(created.link!.expires_at) - env.clock.now()).toBe(24 * 3_600_000);

    await expect(setPasswordWithLink({ token, password: 'qwertyuiop', origin: from }, env)).rejects.toMatchObject({
      code: 'validation_error',
    });
    const { user } = await setPasswordWithLink({ token, password: 'a long pass phrase', origin: from }, env);
    expect(await verifyPassword('a long pass phrase', user.password_hash!)).toBe(true);
    await expect(setPasswordWithLink({ token, password: 'another pass phrase', origin: from }, env)).rejects.toBeInstanceOf(LinkUnusable);
  });

  it('"forgot password" e-mails a reset link (1 hour) to users only, and the same nothing to everyone else', async () => {
    const env = await peopleWithAdmin();
    await requestPasswordReset({ email: 'nobody@acme.test', origin }, env);
    await deliverResetRequests(env);
    expect(env.mailer.sent).toEqual([]);
    await requestPasswordReset({ email: 'ALICE@acme.test', origin }, env);
    // Sent from the stream, never while the page waits.
    expect(env.mailer.sent).toEqual([]);
    await deliverResetRequests(env);
    expect(env.mailer.sent).toHaveLength(1);
    expect(env.resetRequests.stored.size).toBe(0);
    const [mail] = env.mailer.sent;
    expect(mail!.to).toBe('alice@acme.test');
    expect(mail!.text).toContain(`${origin}/dashboard/set-password?token=`);
    const token = tokenIn(mail!.text);
    expect(await findUsableLink(token, env)).toMatchObject({ link: { purpose: 'reset_password' } });
    env.clock.advance(3_600_000);
    expect(await findUsableLink(token, env)).toBeUndefined();
    await expect(setPasswordWithLink({ token, password: 'a long pass phrase', origin: from }, env)).rejects.toBeInstanceOf(LinkUnusable);
  });

  it('a password set through one link makes every link sent before it worthless', async () => {
    const env = await peopleWithAdmin();
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await deliverResetRequests(env);
    const [first, second] = env.mailer.sent.map((mail) => tokenIn(mail.text));
    await setPasswordWithLink({ token: second!, password: 'a second pass phrase', origin: from }, env);

    expect(await findUsableLink(first!, env)).toBeUndefined();
    await expect(setPasswordWithLink({ token: first!, password: 'an older pass phrase', origin: from }, env)).rejects.toBeInstanceOf(
      LinkUnusable,
    );
    // A link sent after the change works.
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await deliverResetRequests(env);
    const third = tokenIn(env.mailer.sent[2]!.text);
    await expect(setPasswordWithLink({ token: third, password: 'a third pass phrase', origin: from }, env)).resolves.toBeDefined();
  });

  it('sends at most three reset e-mails for one address in 15 minutes', async () => {
    const env = await peopleWithAdmin();
    for (let i = 0; i < 6; i += 1) await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await deliverResetRequests(env);
    expect(env.mailer.sent).toHaveLength(3);
  });

  it('sends no more reset e-mails for requests at once than for requests in a row', async () => {
    const env = await peopleWithAdmin();
    await Promise.all(Array.from({ length: 10 }, () => requestPasswordReset({ email: 'alice@acme.test', origin }, env)));
    await deliverResetRequests(env);
    expect(env.mailer.sent).toHaveLength(3);
  });

  it('a reset ends every session of the user', async () => {
    const env = await peopleWithAdmin();
    const { token: sessionToken } = await startSession(
      { userId: env.admin.id, accountId: env.account.id, stage: 'active', origin: from },
      env,
    );
    await requestPasswordReset({ email: 'alice@acme.test', origin }, env);
    await deliverResetRequests(env);
    await setPasswordWithLink({ token: tokenIn(env.mailer.sent[0]!.text), password: 'a brand new phrase', origin: from }, env);
    expect(await resolveSession(sessionToken, env)).toBeUndefined();
    expect(env.audit.records.at(-1)).toMatchObject({ action: 'user.password_changed', details: { through: 'reset_password' } });
  });

  it('users create adds an existing user to another account, and refuses a member twice (409)', async () => {
    const env = await peopleWithAdmin();
    const { createAccount } = await import('../../../functions/core/credentials/manage-credentials');
    const other = await createAccount({ email: 'other@acme.test' }, env);
    const added = await createUser({ email: 'alice@acme.test', accountId: other.id, role: 'viewer' }, env);
    expect(added).toMatchObject({ created: false, user: { id: env.admin.id }, membership: { account_id: other.id, role: 'viewer' } });
    expect(added.link).toBeUndefined();
    const error = await apiErrorOf(createUser({ email: 'alice@acme.test', accountId: other.id }, env));
    expect([error.code, statusOf(error)]).toEqual(['conflict', 409]);
  });
});
