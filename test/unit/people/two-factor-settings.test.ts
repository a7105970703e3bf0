import { generate } from 'otplib';
import { apiErrorOf } from '../fakes/api-error';
import { disableTotp, enableTotp, proposeTotp, regenerateRecoveryCodes } from '../../../functions/core/users/manage-two-factor';
import { type SignInRefused, signIn } from '../../../functions/core/users/sign-in';
import { from, peopleWithAdmin } from './people-fixture';

/** An admin with two-factor sign-in on. */
const adminWithTwoFactor = async () => {
  const env = await peopleWithAdmin();
  const user = (await env.users.get(env.admin.id))!;
  const { secret } = proposeTotp(user);
  await enableTotp(
    {
      user,
      secret,
      code: await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) }),
      password: env.password,
      accountId: env.account.id,
      origin: from,
    },
    env,
  );
  return { ...env, user: async () => (await env.users.get(env.admin.id))! };
};

describe('two-factor settings', () => {
  it('turning it off checks the password as a sign-in does: after 5 failures the next try waits, the right password too', async () => {
    const env = await adminWithTwoFactor();
    for (let i = 0; i < 5; i += 1) {
      const wrong = await apiErrorOf(
        disableTotp({ user: await env.user(), password: `wrong ${i}`, accountId: env.account.id, origin: from }, env),
      );
      expect(wrong.code).toBe('validation_error');
    }
    const throttled = await apiErrorOf(
      disableTotp({ user: await env.user(), password: env.password, accountId: env.account.id, origin: from }, env),
    );
    expect([throttled.code, throttled.headers['Retry-After']]).toEqual(['rate_limited', '2']);
    expect((await env.user()).totp_enabled_at).not.toBeNull();
    // The failures were the e-mail's: its sign-in waits too.
    await expect(signIn({ email: env.admin.email, password: env.password, origin: from }, env)).rejects.toMatchObject({
      reason: 'throttled',
    } satisfies Partial<SignInRefused>);

    env.clock.advance(2_000);
    await disableTotp({ user: await env.user(), password: env.password, accountId: env.account.id, origin: from }, env);
    expect((await env.user()).totp_enabled_at).toBeNull();
  });

  it("turning it on asks for the current password: a session alone cannot put another person's authenticator in front of the account", async () => {
    const env = await peopleWithAdmin();
    const user = (await env.users.get(env.admin.id))!;
    const { secret } = proposeTotp(user);
    const code = await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) });
    const input = { user, secret, code, accountId: env.account.id, origin: from };
    const refused = await apiErrorOf(enableTotp({ ...input, password: 'not the password' }, env));
    expect([refused.code, refused.details]).toEqual(['validation_error', { field: 'password', issue: 'is not your current password' }]);
    expect((await env.users.get(env.admin.id))!.totp_enabled_at).toBeNull();

    await expect(enableTotp({ ...input, password: env.password }, env)).resolves.toHaveLength(10);
    expect((await env.users.get(env.admin.id))!.totp_enabled_at).not.toBeNull();
  });

  it('new recovery codes ask for the current password, and the old ones stay until it is given', async () => {
    const env = await adminWithTwoFactor();
    const before = (await env.user()).recovery_code_hashes;
    const refused = await apiErrorOf(
      regenerateRecoveryCodes({ user: await env.user(), password: 'not the password', accountId: env.account.id, origin: from }, env),
    );
    expect([refused.code, refused.details]).toEqual(['validation_error', { field: 'password', issue: 'is not your current password' }]);
    expect((await env.user()).recovery_code_hashes).toEqual(before);

    const codes = await regenerateRecoveryCodes(
      { user: await env.user(), password: env.password, accountId: env.account.id, origin: from },
      env,
    );
    expect(codes).toHaveLength(10);
    expect((await env.user()).recovery_code_hashes).not.toEqual(before);
  });
});
