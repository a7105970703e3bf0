import { type AuditAction, type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { ApiError, conflict, validationError } from '../errors';
import { newId } from '../ids';
import { confirmCurrentPassword, type PasswordConfirmationDeps } from './confirm-password';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpUri, verifyTotp } from './two-factor';
import type { User, UserRepository } from './user';

export interface TwoFactorDeps extends PasswordConfirmationDeps {
  users: UserRepository;
  audit: AuditLog;
  clock: Clock;
}

/** The secret the set-up page shows until the user confirms it with a code; not stored before. */
export const proposeTotp = (user: User, secret: string = newTotpSecret()): { secret: string; uri: string } => ({
  secret,
  uri: totpUri(secret, user.email),
});

const store = async (updated: User, deps: TwoFactorDeps): Promise<void> => {
  if (!(await deps.users.update(updated))) throw conflict('Your account changed meanwhile. Reload the page and try again.');
};

const audit = async (user: User, accountId: string | null, action: AuditAction, origin: RequestOrigin, deps: TwoFactorDeps) => {
  if (!accountId) return;
  const now = deps.clock.now();
  await deps.audit.record(
    auditRecordOf(
      { accountId, action, actor: { type: 'user', id: user.id }, targetId: user.id, origin },
      newId('auditRecord', now),
      isoTime(now),
    ),
  );
};

/**
 * Turns two-factor sign-in on once a code from the app proves the secret was saved, and the current
 * password that it is the person themselves: a session alone (a computer left signed in) must not
 * put a second factor of someone else's in front of the account, which no reset link skips.
 * Answers the recovery codes, shown this once.
 */
export const enableTotp = async (
  input: { user: User; secret: string; code: string; password: string; accountId: string | null; origin: RequestOrigin },
  deps: TwoFactorDeps,
): Promise<string[]> => {
  const { user } = input;
  if (user.totp_enabled_at) throw conflict('Two-factor sign-in is on already.');
  if (!/^[A-Z2-7]{32}$/.test(input.secret)) throw validationError([{ field: 'secret', issue: 'is not the secret this page showed' }]);
  const now = deps.clock.now();
  const step = await verifyTotp(input.secret, input.code, now, null);
  if (step === undefined) throw validationError([{ field: 'code', issue: 'is not the current code of your authenticator app' }]);
  await confirmCurrentPassword({ user, password: input.password, origin: input.origin }, deps);
  const codes = newRecoveryCodes();
  await store(
    {
      ...user,
      totp_secret: input.secret,
      totp_enabled_at: isoTime(now),
      totp_last_step: step,
      recovery_code_hashes: codes.map(hashRecoveryCode),
      updated_at: isoTime(now),
      revision: user.revision + 1,
    },
    deps,
  );
  await audit(user, input.accountId, 'user.two_factor_enabled', input.origin, deps);
  return codes;
};

/** Turning it off asks for the password again (counted as a sign-in attempt). */
export const disableTotp = async (
  input: { user: User; password: string; accountId: string | null; origin: RequestOrigin },
  deps: TwoFactorDeps,
): Promise<void> => {
  const { user } = input;
  if (!user.totp_enabled_at) throw conflict('Two-factor sign-in is off already.');
  await confirmCurrentPassword({ user, password: input.password, origin: input.origin }, deps);
  const now = deps.clock.now();
  await store(
    {
      ...user,
      totp_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      recovery_code_hashes: [],
      updated_at: isoTime(now),
      revision: user.revision + 1,
    },
    deps,
  );
  await audit(user, input.accountId, 'user.two_factor_disabled', input.origin, deps);
};

/**
 * New recovery codes replace every old one. They pass the second factor, so the current password
 * is asked first, as to turn it off.
 */
export const regenerateRecoveryCodes = async (
  input: { user: User; password: string; accountId: string | null; origin: RequestOrigin },
  deps: TwoFactorDeps,
): Promise<string[]> => {
  const { user } = input;
  if (!user.totp_enabled_at) throw new ApiError('conflict', 'Turn two-factor sign-in on first.');
  await confirmCurrentPassword({ user, password: input.password, origin: input.origin }, deps);
  const now = deps.clock.now();
  const codes = newRecoveryCodes();
  await store({ ...user, recovery_code_hashes: codes.map(hashRecoveryCode), updated_at: isoTime(now), revision: user.revision + 1 }, deps);
  await audit(user, input.accountId, 'user.recovery_codes_regenerated', input.origin, deps);
  return codes;
};
