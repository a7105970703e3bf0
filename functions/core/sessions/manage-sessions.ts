import type { AuditLog, RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import type { Account } from '../credentials/credential';
import { newId } from '../ids';
import type { Mode } from '../tenancy';
import type { Membership, User } from '../users/user';
import { hashSecretToken, isSecretTokenShaped, newSecretToken } from '../secret-token';
import {
  type AttentionCounts,
  type Session,
  sessionAbsoluteMs,
  sessionIdleMs,
  type SessionRepository,
  type SignedInReads,
  sessionTouchGranularityMs,
  type SessionView,
  twoFactorStageMs,
} from './session';

export interface SessionDeps {
  sessions: SessionRepository;
  clock: Clock;
}

/** A new session; `token` goes into the cookie and nowhere else. */
export const startSession = async (
  input: { userId: string; accountId: string | null; stage: Session['stage']; origin: RequestOrigin },
  deps: SessionDeps,
): Promise<{ session: Session; token: string }> => {
  const now = deps.clock.now();
  const token = newSecretToken();
  const session: Session = {
    id: newId('session', now),
    hash: hashSecretToken(token),
    user_id: input.userId,
    account_id: input.accountId,
    stage: input.stage,
    csrf_token: newSecretToken(),
    created_at: isoTime(now),
    last_seen_at: isoTime(now),
    expires_at: isoTime(now + (input.stage === 'two_factor' ? twoFactorStageMs : sessionAbsoluteMs)),
    ip: input.origin.ip,
    user_agent: input.origin.userAgent?.slice(0, 512) ?? null,
  };
  await deps.sessions.create(session);
  return { session, token };
};

const isLive = (session: Session, now: number): boolean =>
  Date.parse(session.expires_at) > now && Date.parse(session.last_seen_at) + sessionIdleMs > now;

/** Records the use of a live session at most once a minute (the idle clock restarts then); undefined once it is gone. */
const touched = async (session: Session, now: number, deps: SessionDeps): Promise<Session | undefined> => {
  if (Date.parse(session.last_seen_at) + sessionTouchGranularityMs > now) return session;
  const lastSeen = isoTime(now);
  if (!(await deps.sessions.update(session.hash, { last_seen_at: lastSeen }))) return undefined;
  return { ...session, last_seen_at: lastSeen };
};

/**
 * The session a token names, if it is still live: within its absolute end and used within the
 * idle limit. Records the use at most once a minute (the idle clock restarts then).
 */
export const resolveSession = async (token: string | undefined, deps: SessionDeps): Promise<Session | undefined> => {
  if (!token || !isSecretTokenShaped(token)) return undefined;
  const session = await deps.sessions.findByHash(hashSecretToken(token));
  const now = deps.clock.now();
  return session && isLive(session, now) ? touched(session, now, deps) : undefined;
};

export interface SignedInSession {
  session: Session;
  user: User;
  /** The membership of the account the session acts for, while the user still has it. */
  membership?: Membership;
  /** The account the session acts for, while the user is a member of it. */
  account?: Account;
  /** The account's failed webhooks in `mode` (0 without an account). */
  failedWebhooks: number;
  /** The account's attention counts in `mode`, when asked for (Home). */
  attention?: AttentionCounts;
}

/**
 * A page's first read: the live session of `token`, with its user, membership and failed-webhook
 * count, all read in one round trip through the ids the cookie carries beside the token. Those ids
 * are only where to look: unless the session names the same user and account, nothing is signed in.
 */
export const resolveSignedIn = async (
  cookie: { token: string; userId: string; accountId: string | null },
  mode: Mode,
  deps: SessionDeps & { signedInReads: SignedInReads },
  options: { attention?: boolean } = {},
): Promise<SignedInSession | undefined> => {
  if (!isSecretTokenShaped(cookie.token)) return undefined;
  const read = await deps.signedInReads.read({
    hash: hashSecretToken(cookie.token),
    userId: cookie.userId,
    accountId: cookie.accountId,
    mode,
    ...(options.attention ? { attention: true } : {}),
  });
  const now = deps.clock.now();
  const { session, user } = read;
  if (!session || !user || !isLive(session, now)) return undefined;
  if (session.user_id !== cookie.userId || session.account_id !== cookie.accountId || user.id !== session.user_id) return undefined;
  const live = await touched(session, now, deps);
  if (!live) return undefined;
  const { membership, account } = read;
  return {
    session: live,
    user,
    ...(membership ? { membership, ...(account ? { account } : {}) } : {}),
    failedWebhooks: read.failedWebhooks,
    ...(membership && read.attention ? { attention: read.attention } : {}),
  };
};

/**
 * The second factor was given: a new full session (new token, new CSRF token, the full lifetime from
 * now) replaces the two-factor-stage one, which ends, so a token seen before the second factor is
 * worth nothing after it.
 */
export const completeTwoFactor = async (
  session: Session,
  accountId: string | null,
  origin: RequestOrigin,
  deps: SessionDeps,
): Promise<{ session: Session; token: string }> => {
  await deps.sessions.delete(session.hash);
  return startSession({ userId: session.user_id, accountId, stage: 'active', origin }, deps);
};

export const selectAccount = async (session: Session, accountId: string, deps: SessionDeps): Promise<Session> => {
  await deps.sessions.update(session.hash, { account_id: accountId });
  return { ...session, account_id: accountId };
};

/** Sign-out ends the session on the server: the cookie alone is worth nothing afterwards. */
export const endSession = async (session: Session, deps: SessionDeps): Promise<void> => {
  await deps.sessions.delete(session.hash);
};

export const listSessions = async (current: Session, deps: SessionDeps): Promise<SessionView[]> => {
  const now = deps.clock.now();
  return (await deps.sessions.ofUser(current.user_id))
    .filter((s) => s.stage === 'active' && isLive(s, now))
    .sort((a, b) => b.last_seen_at.localeCompare(a.last_seen_at))
    .map((s) => ({
      id: s.id,
      current: s.hash === current.hash,
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      expires_at: s.expires_at,
      ip: s.ip,
      user_agent: s.user_agent,
    }));
};

/** Ends every session of the user but `keep` (all of them when `keep` is undefined); how many ended. */
export const endSessionsOfUser = async (userId: string, keep: Session | undefined, deps: SessionDeps): Promise<number> => {
  const others = (await deps.sessions.ofUser(userId)).filter((s) => s.hash !== keep?.hash);
  for (const session of others) await deps.sessions.delete(session.hash);
  return others.length;
};

/** "Sign out everywhere else", recorded in the audit log of the account the user acts for. */
export const signOutOtherSessions = async (
  current: Session,
  origin: RequestOrigin,
  deps: SessionDeps & { audit: AuditLog },
): Promise<number> => {
  const ended = await endSessionsOfUser(current.user_id, current, deps);
  if (current.account_id) {
    const now = deps.clock.now();
    await deps.audit.record({
      id: newId('auditRecord', now),
      account_id: current.account_id,
      action: 'user.sessions_revoked',
      actor: { type: 'user', id: current.user_id },
      target_id: current.user_id,
      details: { sessions_ended: ended },
      ip: origin.ip,
      user_agent: origin.userAgent,
      created_at: isoTime(now),
    });
  }
  return ended;
};

/** Ends one of the user's own sessions from the list (never another user's). */
export const endSessionById = async (current: Session, sessionId: string, deps: SessionDeps): Promise<boolean> => {
  const target = (await deps.sessions.ofUser(current.user_id)).find((s) => s.id === sessionId);
  if (!target) return false;
  await deps.sessions.delete(target.hash);
  return true;
};
