import { isId } from '../../core/ids';
import { isSecretTokenShaped } from '../../core/secret-token';
import type { Session } from '../../core/sessions/session';

/**
 * The session cookie's value: `<user id>.<account id, or - before one is picked>.<secret token>`.
 * The ids are not secret and prove nothing: they name the user, membership and account items a
 * page reads in the same batch as the session (keyed by the token's hash), and the session read
 * must name the same user and account or the cookie counts for nothing. Only the token signs in.
 */
export interface SessionCookieValue {
  userId: string;
  accountId: string | null;
  token: string;
}

const noAccount = '-';

export const sessionCookieValue = (session: Pick<Session, 'user_id' | 'account_id'>, token: string): string =>
  `${session.user_id}.${session.account_id ?? noAccount}.${token}`;

/** The parts of a session cookie; undefined for anything else (an old, token-only cookie among them). */
export const parseSessionCookie = (value: string | undefined): SessionCookieValue | undefined => {
  const parts = value?.split('.');
  if (parts?.length !== 3) return undefined;
  const [userId, accountId, token] = parts as [string, string, string];
  if (!isId('user', userId) || !isSecretTokenShaped(token)) return undefined;
  if (accountId !== noAccount && !isId('account', accountId)) return undefined;
  return { userId, accountId: accountId === noAccount ? null : accountId, token };
};
