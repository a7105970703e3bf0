import { randomUUID } from 'node:crypto';
import { type Clock, isoTime } from '../clock';
import type { Mailer } from '../webhooks/delivery';
import { newLink } from './manage-users';
import { linkLifetimesMs, type OneTimeLink } from './one-time-links';
import { linkUrl } from './password-links';
import { reserveAttempt, type SignInThrottleStore, throttleKeys, throttleRules } from './sign-in-throttle';
import { isEmail, normalizeEmail, type UserRepository } from './user';

/**
 * A "forgot password" request, recorded as it was asked for: the address (normalized) and the
 * origin the link is to lead to, never a token. The table's stream hands it to the function that
 * looks the user up and sends the e-mail, so asking takes the same work for every address.
 */
export interface PasswordResetRequest {
  id: string;
  email: string;
  origin: string;
  created_at: string;
  expires_at: string;
}

/** A request not handled by then is dropped: its link would have expired by now. */
export const resetRequestLifetimeMs = linkLifetimesMs.reset_password;

export interface PasswordResetRequestStore {
  /** Stores a new request, which expires (TTL) at its `expires_at`. */
  record(request: PasswordResetRequest): Promise<void>;
  /**
   * Marks the request as being sent and stores its link, in one transaction: 'handled' (nothing
   * stored) when it was marked or removed already, by an earlier delivery of its record.
   */
  claim(requestId: string, link: OneTimeLink): Promise<'claimed' | 'handled'>;
  /** Undoes a claim whose e-mail was not sent, in one transaction: the link goes, the request waits again. */
  release(requestId: string, linkHash: string): Promise<void>;
  /** Removes the request: its e-mail went, or no user has the address, or it expired. */
  discard(requestId: string): Promise<void>;
}

/**
 * "Forgot password": the same work whatever the address, and no e-mail sent while the page waits,
 * so neither the answer nor its time tells whether a user has it. The request is counted first,
 * atomically (requests at once record no more than requests in a row: at most 3 per address in
 * 15 minutes), then recorded for the stream; an address that cannot be one records nothing.
 */
export const requestPasswordReset = async (
  input: { email: string; origin: string },
  deps: { throttle: SignInThrottleStore; resetRequests: PasswordResetRequestStore; clock: Clock },
): Promise<void> => {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) return;
  const now = deps.clock.now();
  const key = throttleKeys.resetEmail(email);
  if (!(await reserveAttempt([{ key, rule: throttleRules.resetEmail }], deps.throttle, now)).reserved) return;
  await deps.resetRequests.record({
    id: randomUUID(),
    email,
    origin: input.origin,
    created_at: isoTime(now),
    expires_at: isoTime(now + resetRequestLifetimeMs),
  });
};

export type ResetRequestOutcome = 'sent' | 'no_user' | 'expired' | 'handled';

const resetEmail = (to: string, link: string) => ({
  to,
  subject: 'Reset your Project Automation Service password',
  text: [
    'Someone (we hope you) asked to reset the password of this e-mail address.',
    '',
    `Set a new password here; the link works once, within one hour:`,
    link,
    '',
    'If it was not you, ignore this e-mail: your password stays as it is.',
  ].join('\n'),
});

/**
 * What the stream does with a request: a user of the address gets a reset link (1 h) by e-mail;
 * an unknown address only removes the request. At most one e-mail per request, however often its
 * record is delivered: the link is stored in the same transaction that claims the request, and
 * only the delivery that claimed it sends. A send that fails gives the claim back (the unsent link
 * goes with it) and throws, so the stream's retry of the record sends it then. Only an invocation
 * that dies between the claim and the mail service's answer sends nothing, since whether the mail
 * went cannot be known; the person asks again.
 */
export const sendRequestedPasswordReset = async (
  request: PasswordResetRequest,
  deps: { users: Pick<UserRepository, 'findByEmail'>; resetRequests: PasswordResetRequestStore; mailer: Mailer; clock: Clock },
): Promise<ResetRequestOutcome> => {
  const now = deps.clock.now();
  if (Date.parse(request.expires_at) <= now) {
    await deps.resetRequests.discard(request.id);
    return 'expired';
  }
  const user = await deps.users.findByEmail(request.email);
  if (!user) {
    await deps.resetRequests.discard(request.id);
    return 'no_user';
  }
  const { link, issued } = newLink(user, 'reset_password', now);
  if ((await deps.resetRequests.claim(request.id, link)) === 'handled') return 'handled';
  try {
    await deps.mailer.send(resetEmail(user.email, linkUrl(request.origin, issued.token)));
  } catch (error) {
    await deps.resetRequests.release(request.id, link.hash);
    throw error;
  }
  await deps.resetRequests.discard(request.id);
  return 'sent';
};
