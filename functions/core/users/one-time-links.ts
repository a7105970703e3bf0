import { createHash } from 'node:crypto';
import type { User } from './user';

/**
 * A link sent to a person that works once: to set a first password (a new user, the first admin)
 * or to reset a forgotten one. The link carries a secret; only its SHA-256 is stored.
 */
export interface OneTimeLink {
  hash: string;
  user_id: string;
  purpose: 'set_password' | 'reset_password';
  created_at: string;
  expires_at: string;
  /**
   * The user's password when the link was sent (`passwordFingerprint`): once it changes, by this
   * link or another, every link sent before it no longer works. Absent on links stored before.
   */
  password_fingerprint?: string;
}

/** A digest of the stored password hash ('none' before any is set), never the hash itself. */
export const passwordFingerprint = (user: Pick<User, 'password_hash'>): string =>
  user.password_hash === null ? 'none' : createHash('sha256').update(user.password_hash).digest('base64url');

export const linkLifetimesMs: Record<OneTimeLink['purpose'], number> = {
  set_password: 24 * 3_600_000,
  reset_password: 3_600_000,
};

export const setPasswordPath = '/dashboard/set-password';

export interface OneTimeLinkRepository {
  create(link: OneTimeLink): Promise<void>;
  find(hash: string): Promise<OneTimeLink | undefined>;
  /**
   * Uses the link up and stores `user` (revision already bumped) in one transaction: 'used' when
   * the link is gone or expired, 'changed' when the user changed meanwhile.
   */
  redeem(hash: string, user: User, now: string): Promise<'redeemed' | 'used' | 'changed'>;
}
