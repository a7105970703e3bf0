import { hashSecretToken } from '../../../functions/core/secret-token';
import { resolveSession } from '../../../functions/core/sessions/manage-sessions';
import { enableTotp, proposeTotp } from '../../../functions/core/users/manage-two-factor';
import { completeSignIn, SignInRefused, signIn } from '../../../functions/core/users/sign-in';
import { generate } from 'otplib';
import { from, peopleWithAdmin } from './people-fixture';

/** An admin with two-factor sign-in on, and the TOTP code of any instant. */
const peopleWithTwoFactor = async () => {
  const env = await peopleWithAdmin();
  const user = (await env.users.get(env.admin.id))!;
  const { secret } = proposeTotp(user);
  const codeAt = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
  await enableTotp(
    { user, secret, code: await codeAt(env.clock.now()), password: env.password, accountId: env.account.id, origin: from },
    env,
  );
  // The code that enabled it cannot be used again: the next one is 30 s later.
  env.clock.advance(30_000);
  return { ...env, codeAt };
};

const refusal = async (promise: Promise<unknown>): Promise<SignInRefused> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SignInRefused) return error;
    throw error;
  }
  throw new Error('expected the sign-in to be refused');
};

describe('sign-in', () => {
  it('with the right e-mail (any case) and password starts a session acting for the only account', async () => {
    const env = await peopleWithAdmin();
    const result = await signIn({ email: ' ALICE@acme.test ', password: env.password, origin: from }, env);
    expect(result.kind).toBe('signed_in');
    expect(result.session).toMatchObject({ user_id: env.admin.id, account_id: env.account.id, stage: 'active', ip: from.ip });
    // The cookie value is not stored; its hash is.
    expect(result.session.hash).toBe(hashSecretToken(result.token));
    expect(env.sessions.all().map((s) => s.hash)).toEqual([hashSecretToken(result.token)]);
    expect(await resolveSession(result.token, env)).toMatchObject({ id: result.session.id });
    expect(env.audit.records.map((r) => r.action)).toContain('user.signed_in');
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const env = await peopleWithAdmin();
    const wrong = await refusal(signIn({ email: 'alice@acme.test', password: 'not the password', origin: from }, env));
    const unknown = await refusal(signIn({ email: 'nobody@acme.test', password: 'not the password', origin: from }, env));
    expect(wrong.message).toBe(unknown.message);
    expect([wrong.reason, unknown.reason]).toEqual(['invalid_credentials', 'invalid_credentials']);
    expect(env.sessions.all()).toEqual([]);
    // Only the existing user's account learns of the failure.
    expect(env.audit.records.filter((r) => r.action === 'user.sign_in_failed')).toHaveLength(1);
  });

  it('slows down repeated failures per e-mail, whether or not it has a user, and forgets them after a success', async () => {
    const env = await peopleWithAdmin();
    for (const email of ['alice@acme.test', 'nobody@acme.test']) {
      for (let i = 0; i < 5; i += 1) {
        await refusal(signIn({ email, password: 'wrong password', origin: { ip: `203.0.113.${i}`, userAgent: null } }, env));
      }
      // The sixth try must wait, even with the right password, and from another address.
      const throttled = await refusal(signIn({ email, password: env.password, origin: { ip: '203.0.113.99', userAgent: null } }, env));
      expect(throttled.reason).toBe('throttled');
      expect(throttled.retryAfterSeconds).toBe(2);
    }
    env.clock.advance(2_000);
    await expect(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env)).resolves.toMatchObject({
      kind: 'signed_in',
    });
    await expect(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env)).resolves.toMatchObject({
      kind: 'signed_in',
    });
  });

  it('slows down an address that tries many e-mails', async () => {
    const env = await peopleWithAdmin();
    for (let i = 0; i < 20; i += 1) await refusal(signIn({ email: `guess${i}@acme.test`, password: 'wrong password', origin: from }, env));
    const throttled = await refusal(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env));
    expect(throttled.reason).toBe('throttled');
  });

  it('with two-factor on, waits for a code: TOTP once, or a recovery code once', async () => {
    const env = await peopleWithAdmin();
    const { secret } = proposeTotp(env.admin as never);
    const user = (await env.users.get(env.admin.id))!;
    const at = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });
    const codes = await enableTotp(
      { user, secret, code: await at(env.clock.now()), password: env.password, accountId: env.account.id, origin: from },
      env,
    );
    expect(codes).toHaveLength(10);

    env.clock.advance(60_000);
    const first = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
    expect(first.kind).toBe('two_factor');
    expect(first.session.account_id).toBeNull();
    const code = await at(env.clock.now());
    const done = await completeSignIn({ session: first.session, code, origin: from }, env);
    expect(done.session).toMatchObject({ stage: 'active', account_id: env.account.id });

    // The same code again (within its 30 s) is refused: a code works once.
    const second = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
    expect((await refusal(completeSignIn({ session: second.session, code, origin: from }, env))).reason).toBe('invalid_code');
    // A recovery code works once.
    await expect(completeSignIn({ session: second.session, code: codes[0]!.toUpperCase(), origin: from }, env)).resolves.toMatchObject({
      session: { stage: 'active' },
    });
    const third = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
    expect((await refusal(completeSignIn({ session: third.session, code: codes[0]!, origin: from }, env))).reason).toBe('invalid_code');
    expect((await env.users.get(env.admin.id))!.recovery_code_hashes).toHaveLength(9);
  });

  it('completing the second factor starts a new session with a new token and ends the half-finished one', async () => {
    const env = await peopleWithTwoFactor();
    const pending = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
    expect(await resolveSession(pending.token, env)).toMatchObject({ stage: 'two_factor' });

    const done = await completeSignIn({ session: pending.session, code: await env.codeAt(env.clock.now()), origin: from }, env);
    expect(done.token).not.toBe(pending.token);
    expect(done.session).toMatchObject({ stage: 'active', account_id: env.account.id, user_id: env.admin.id });
    expect(done.session.id).not.toBe(pending.session.id);
    expect(done.session.hash).toBe(hashSecretToken(done.token));
    expect(done.session.csrf_token).not.toBe(pending.session.csrf_token);
    // The token from before the second factor opens nothing any more; the new one opens the full session.
    expect(await resolveSession(pending.token, env)).toBeUndefined();
    expect(await resolveSession(done.token, env)).toMatchObject({ id: done.session.id, stage: 'active' });
    expect(env.sessions.all().map((s) => s.hash)).toEqual([hashSecretToken(done.token)]);
  });

  it('keeps a half-finished sign-in for 10 minutes only', async () => {
    const env = await peopleWithAdmin();
    const user = (await env.users.get(env.admin.id))!;
    const { secret } = proposeTotp(user);
    await enableTotp(
      {
        user,
        secret,
        code: await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) }),
        password: env.password,
        accountId: null,
        origin: from,
      },
      env,
    );
    const pending = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
    env.clock.advance(10 * 60_000 + 1);
    expect(await resolveSession(pending.token, env)).toBeUndefined();
  });

  describe('attempts sent at once', () => {
    const burst = async (size: number, attempt: (i: number) => Promise<unknown>) => {
      const outcomes = await Promise.allSettled(Array.from({ length: size }, (_, i) => attempt(i)));
      const reasons = outcomes.map((o) => {
        if (o.status === 'fulfilled') return 'succeeded';
        if (o.reason instanceof SignInRefused) return o.reason.reason;
        throw o.reason;
      });
      return {
        checked: reasons.filter((r) => r !== 'throttled').length,
        throttled: reasons.filter((r) => r === 'throttled').length,
      };
    };
    const oneAfterAnother = async (size: number, attempt: (i: number) => Promise<unknown>) => {
      let checked = 0;
      for (let i = 0; i < size; i += 1) {
        const outcome = await attempt(i).then(
          () => 'succeeded',
          (error: unknown) => (error instanceof SignInRefused ? error.reason : Promise.reject(error)),
        );
        if (outcome !== 'throttled') checked += 1;
      }
      return checked;
    };

    it('get no more password checks than the same attempts one after another (per e-mail)', async () => {
      const wrong = (env: Awaited<ReturnType<typeof peopleWithAdmin>>, ip: string) => (i: number) =>
        signIn({ email: 'alice@acme.test', password: `wrong password ${i}`, origin: { ip, userAgent: null } }, env);
      const sequential = await oneAfterAnother(40, wrong(await peopleWithAdmin(), '203.0.113.1'));
      expect(sequential).toBe(5);

      const env = await peopleWithAdmin();
      expect(await burst(40, wrong(env, '203.0.113.2'))).toEqual({ checked: 5, throttled: 35 });
      // Only the failures were recorded, and the right password must wait like anything else.
      expect(env.audit.records.filter((r) => r.action === 'user.sign_in_failed')).toHaveLength(5);
      const throttled = await refusal(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env));
      expect(throttled).toMatchObject({ reason: 'throttled', retryAfterSeconds: 2 });
    });

    it('get no more password checks than one after another (per address), with unknown e-mails too', async () => {
      const env = await peopleWithAdmin();
      const guesses = await burst(60, (i) => signIn({ email: `guess${i}@acme.test`, password: 'wrong password', origin: from }, env));
      expect(guesses).toEqual({ checked: 20, throttled: 40 });
    });

    it('get no more second-factor checks than one after another', async () => {
      const env = await peopleWithTwoFactor();
      const pending = await signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env);
      // Well-formed codes, none of them valid around now.
      const valid = new Set(await Promise.all([-30_000, 0, 30_000].map((d) => env.codeAt(env.clock.now() + d))));
      const wrongCodes = Array.from({ length: 50 }, (_, i) => String(i).padStart(6, '0')).filter((c) => !valid.has(c));
      const result = await burst(40, (i) => completeSignIn({ session: pending.session, code: wrongCodes[i]!, origin: from }, env));
      expect(result).toEqual({ checked: 5, throttled: 35 });
      const code = await env.codeAt(env.clock.now());
      expect(await refusal(completeSignIn({ session: pending.session, code, origin: from }, env))).toMatchObject({
        reason: 'throttled',
      });
    });

    it('count the wait from the answer, and a success gives its attempt back to the address', async () => {
      const env = await peopleWithAdmin();
      // The clock moves on while the password is checked (1.5 s): the wait starts at the answer.
      for (let i = 0; i < 5; i += 1) {
        const attempt = signIn({ email: 'alice@acme.test', password: 'wrong password', origin: from }, env);
        env.clock.advance(1_500);
        await refusal(attempt);
      }
      env.clock.advance(1_999);
      expect(await refusal(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env))).toMatchObject({
        reason: 'throttled',
        retryAfterSeconds: 1,
      });
      env.clock.advance(1);
      await expect(signIn({ email: 'alice@acme.test', password: env.password, origin: from }, env)).resolves.toMatchObject({
        kind: 'signed_in',
      });
      // The address counted 5 failures; the success is not one of them: 15 more are free.
      for (let i = 0; i < 15; i += 1) {
        expect((await refusal(signIn({ email: `guess${i}@acme.test`, password: 'wrong password', origin: from }, env))).reason).toBe(
          'invalid_credentials',
        );
      }
      expect((await refusal(signIn({ email: 'guess-last@acme.test', password: 'wrong password', origin: from }, env))).reason).toBe(
        'throttled',
      );
    });
  });
});
