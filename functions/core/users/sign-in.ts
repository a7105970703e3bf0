import { type AuditAction, type AuditLog, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import { newId } from '../ids';
import type { Session, SessionRepository } from '../sessions/session';
import { completeTwoFactor, startSession } from '../sessions/manage-sessions';
import { decoyPasswordHash, verifyPassword } from './passwords';
import { attemptFailed, attemptSucceeded, reserveAttempt, type SignInThrottleStore, throttleKeys, throttleRules } from './sign-in-throttle';
import { looksLikeRecoveryCode, matchRecoveryCode, verifyTotp } from './two-factor';
import { normalizeEmail, type User, type UserRepository } from './user';

export interface SignInDeps {
  users: UserRepository;
  sessions: SessionRepository;
  throttle: SignInThrottleStore;
  audit: AuditLog;
  clock: Clock;
}

/** Why a sign-in did not succeed; the message never tells whether the e-mail has a user. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: 'invalid_credentials' | 'throttled' | 'invalid_code',
    readonly retryAfterSeconds = 0,
  ) {
    super(
      reason === 'throttled'
        ? `Too many failed attempts. Wait ${retryAfterSeconds} seconds, then try again.`
        : reason === 'invalid_code'
          ? 'That code is not valid. Check your authenticator app, or use a recovery code.'
          : 'The e-mail or password is not correct.',
    );
    this.name = 'SignInRefused';
  }
}

export type SignInResult = { kind: 'signed_in'; session: Session; token: string } | { kind: 'two_factor'; session: Session; token: string };

const auditToAccountsOf = async (
  user: User,
  action: AuditAction,
  origin: RequestOrigin,
  details: Record<string, unknown>,
  deps: SignInDeps,
) => {
  const now = deps.clock.now();
  for (const membership of await deps.users.membershipsOfUser(user.id)) {
    await deps.audit.record(
      auditRecordOf(
        { accountId: membership.account_id, action, actor: { type: 'user', id: user.id }, targetId: user.id, details, origin },
        newId('auditRecord', now),
        isoTime(now),
      ),
    );
  }
};

/** The account a fresh session acts for: the only one, or none until the user picks. */
const initialAccount = async (user: User, deps: SignInDeps): Promise<string | null> => {
  const memberships = await deps.users.membershipsOfUser(user.id);
  return memberships.length === 1 ? (memberships[0]?.account_id ?? null) : null;
};

/**
 * E-mail and password. Every failure costs the same scrypt work (a decoy hash when no user has the
 * e-mail) and counts against both the e-mail and the address; past the free attempts each one
 * must wait, twice as long each time.
 */
export const signIn = async (
  input: { email: string; password: string; origin: RequestOrigin },
  deps: SignInDeps,
): Promise<SignInResult> => {
  const email = normalizeEmail(input.email);
  const now = deps.clock.now();
  const checks = [
    { key: throttleKeys.email(email), rule: throttleRules.email },
    ...(input.origin.ip ? [{ key: throttleKeys.address(input.origin.ip), rule: throttleRules.address }] : []),
  ];
  // The attempt is counted before the password is checked, so attempts sent at once cannot all
  // pass the check before any of them is counted.
  const attempt = await reserveAttempt(checks, deps.throttle, now);
  if (!attempt.reserved) throw new SignInRefused('throttled', attempt.retryAfterSeconds);

  const user = email ? await deps.users.findByEmail(email) : undefined;
  const valid = await verifyPassword(input.password, user?.password_hash ?? (await decoyPasswordHash()));
  if (!user || !user.password_hash || !valid) {
    // The wait counts from the answer, not from the start of the (slow on purpose) hash.
    await attemptFailed(attempt.reservation, deps.throttle, deps.clock.now());
    if (user) await auditToAccountsOf(user, 'user.sign_in_failed', input.origin, { reason: 'password' }, deps);
    throw new SignInRefused('invalid_credentials');
  }
  // The e-mail's failures are forgotten; the address keeps its own, less this attempt.
  await attemptSucceeded(attempt.reservation, [throttleKeys.email(email)], deps.throttle);

  if (user.totp_enabled_at) {
    const { session, token } = await startSession({ userId: user.id, accountId: null, stage: 'two_factor', origin: input.origin }, deps);
    return { kind: 'two_factor', session, token };
  }
  const { session, token } = await startSession(
    { userId: user.id, accountId: await initialAccount(user, deps), stage: 'active', origin: input.origin },
    deps,
  );
  await auditToAccountsOf(user, 'user.signed_in', input.origin, { two_factor: false }, deps);
  return { kind: 'signed_in', session, token };
};

/**
 * The second step: a TOTP code (never one already used) or a recovery code (used up). Failures
 * are slowed down per user like passwords. Success starts a new session (new token, for a new
 * cookie) and ends the two-factor-stage one.
 */
export const completeSignIn = async (
  input: { session: Session; code: string; origin: RequestOrigin },
  deps: SignInDeps,
): Promise<{ session: Session; token: string }> => {
  const now = deps.clock.now();
  const check = { key: throttleKeys.twoFactor(input.session.user_id), rule: throttleRules.twoFactor };
  const attempt = await reserveAttempt([check], deps.throttle, now);
  if (!attempt.reserved) throw new SignInRefused('throttled', attempt.retryAfterSeconds);

  const user = await deps.users.get(input.session.user_id);
  if (!user?.totp_secret || !user.totp_enabled_at) throw new SignInRefused('invalid_code');

  let method: 'totp' | 'recovery_code' | undefined;
  let updated: User | undefined;
  const step = await verifyTotp(user.totp_secret, input.code, now, user.totp_last_step);
  if (step !== undefined) {
    method = 'totp';
    updated = { ...user, totp_last_step: step, updated_at: isoTime(now), revision: user.revision + 1 };
  } else if (looksLikeRecoveryCode(input.code)) {
    const index = matchRecoveryCode(user, input.code);
    if (index >= 0) {
      method = 'recovery_code';
      updated = {
        ...user,
        recovery_code_hashes: user.recovery_code_hashes.filter((_, i) => i !== index),
        updated_at: isoTime(now),
        revision: user.revision + 1,
      };
    }
  }
  // The conditional write is what makes a code single-use when two requests race.
  if (!method || !updated || !(await deps.users.update(updated))) {
    await attemptFailed(attempt.reservation, deps.throttle, deps.clock.now());
    await auditToAccountsOf(user, 'user.sign_in_failed', input.origin, { reason: 'two_factor' }, deps);
    throw new SignInRefused('invalid_code');
  }
  await attemptSucceeded(attempt.reservation, [check.key], deps.throttle);
  const started = await completeTwoFactor(input.session, await initialAccount(user, deps), input.origin, deps);
  await auditToAccountsOf(user, 'user.signed_in', input.origin, { two_factor: method }, deps);
  return started;
};

/** Signs in the person who just set their password through a link (no second factor is on yet). */
export const signInAfterPasswordSet = async (user: User, origin: RequestOrigin, deps: SignInDeps): Promise<SignInResult> => {
  const { session, token } = await startSession(
    { userId: user.id, accountId: await initialAccount(user, deps), stage: 'active', origin },
    deps,
  );
  await auditToAccountsOf(user, 'user.signed_in', origin, { through: 'one_time_link' }, deps);
  return { kind: 'signed_in', session, token };
};
