import type { Account } from '../credentials/credential';
import type { Mode } from '../tenancy';
import type { Membership, User } from '../users/user';

/** A signed-in browser. The cookie holds a secret; the table holds only its SHA-256 (`hash`). */
export interface Session {
  id: string;
  hash: string;
  user_id: string;
  /** The account the user acts for; null until a user of several accounts picks one. */
  account_id: string | null;
  /** `two_factor`: the password was right and the second factor is awaited; nothing else is allowed yet. */
  stage: 'two_factor' | 'active';
  /** The synchronizer token every state-changing form of this session carries. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** Absolute end, whatever the activity. */
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

/** Idle expiry 12 h, absolute 7 days; a half-finished sign-in (second factor awaited) 10 minutes. */
export const sessionIdleMs = 12 * 3_600_000;
export const sessionAbsoluteMs = 7 * 86_400_000;
export const twoFactorStageMs = 10 * 60_000;
/** `last_seen_at` moves at most this often, so a page view is not also a write. */
export const sessionTouchGranularityMs = 60_000;

export interface SessionRepository {
  create(session: Session): Promise<void>;
  findByHash(hash: string): Promise<Session | undefined>;
  /** Stores the changed fields; false when the session is gone. */
  update(hash: string, changes: Partial<Pick<Session, 'account_id' | 'stage' | 'last_seen_at' | 'expires_at'>>): Promise<boolean>;
  delete(hash: string): Promise<void>;
  ofUser(userId: string): Promise<Session[]>;
}

/** What the sessions page shows of one (never the hash or the CSRF token). */
export interface SessionView {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

/**
 * What a page reads before anything else, in one round trip: the session a token's hash names, the
 * user and membership the session cookie names, and the failed-webhook count of that account in
 * the mode shown (0 without an account), and the account itself. The caller checks that the session names the same user
 * and account before it trusts any of it.
 */
/** What Home shows needs attention, besides failed webhooks: each a counter kept with the writes. */
export interface AttentionCounts {
  runningWorkflows: number;
  openCriticalFindings: number;
  deploymentsInProgress: number;
}

export interface SignedInReads {
  /** `attention`: also the account's attention counts in `mode` (Home), in the same round trip. */
  read(wanted: { hash: string; userId: string; accountId: string | null; mode: Mode; attention?: boolean }): Promise<{
    session?: Session;
    user?: User;
    membership?: Membership;
    account?: Account;
    failedWebhooks: number;
    /** When asked for, with an account. */
    attention?: AttentionCounts;
  }>;
}
