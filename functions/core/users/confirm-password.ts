import type { RequestOrigin } from '../audit/audit';
import type { Clock } from '../clock';
import { ApiError, validationError } from '../errors';
import { verifyPassword } from './passwords';
import { attemptFailed, attemptSucceeded, reserveAttempt, type SignInThrottleStore, throttleKeys, throttleRules } from './sign-in-throttle';
import type { User } from './user';

export interface PasswordConfirmationDeps {
  throttle: SignInThrottleStore;
  clock: Clock;
}

/**
 * The current password, asked again before a change to how the person signs in. Each check counts
 * against the same e-mail and address limits as a sign-in, so a signed-in page is no way to try
 * passwords faster than the sign-in page allows.
 */
export const confirmCurrentPassword = async (
  input: { user: User; password: string; origin: RequestOrigin },
  deps: PasswordConfirmationDeps,
): Promise<void> => {
  const { user } = input;
  const emailKey = throttleKeys.email(user.email);
  const checks = [
    { key: emailKey, rule: throttleRules.email },
    ...(input.origin.ip ? [{ key: throttleKeys.address(input.origin.ip), rule: throttleRules.address }] : []),
  ];
  const attempt = await reserveAttempt(checks, deps.throttle, deps.clock.now());
  if (!attempt.reserved) {
    throw new ApiError(
      'rate_limited',
      `Too many failed attempts. Wait ${attempt.retryAfterSeconds} seconds, then try again.`,
      { field: 'password', issue: 'was tried too often' },
      { 'Retry-After': String(attempt.retryAfterSeconds) },
    );
  }
  if (!user.password_hash || !(await verifyPassword(input.password, user.password_hash))) {
    await attemptFailed(attempt.reservation, deps.throttle, deps.clock.now());
    throw validationError([{ field: 'password', issue: 'is not your current password' }]);
  }
  await attemptSucceeded(attempt.reservation, [emailKey], deps.throttle);
};
