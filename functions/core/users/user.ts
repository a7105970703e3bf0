/** A person who signs in to the dashboard. One e-mail is one user across every account. */
export interface User {
  id: string;
  email: string;
  /** scrypt, in the format of `passwords.ts`; null until the user sets one through a link. */
  password_hash: string | null;
  /** Two-factor sign-in: the TOTP secret (base32) once enabled, else null. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** SHA-256 of each unused recovery code. */
  recovery_code_hashes: string[];
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
  /** Bumped by every change; writes are conditional on it (optimistic concurrency). */
  revision: number;
}

export const roles = ['admin', 'viewer'] as const;
export type Role = (typeof roles)[number];
export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

/** A user's place in an account. */
export interface Membership {
  account_id: string;
  user_id: string;
  role: Role;
  created_at: string;
}

/** What the CLI and the pages show of a user (never a hash or the TOTP secret). */
export interface UserView {
  id: string;
  email: string;
  two_factor: boolean;
  password_set: boolean;
  created_at: string;
}

export const viewOfUser = (user: User): UserView => ({
  id: user.id,
  email: user.email,
  two_factor: user.totp_enabled_at !== null,
  password_set: user.password_hash !== null,
  created_at: user.created_at,
});

export interface UserRepository {
  /** Creates the user, and its membership when given, at once; a conflict when the e-mail is taken. */
  create(user: User, membership?: Membership): Promise<void>;
  get(id: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Stores `user` (whose revision is already bumped) if the stored one is at `revision - 1`; false when it changed meanwhile. */
  update(user: User): Promise<boolean>;
  /** A conflict when the user is a member already. */
  addMembership(membership: Membership): Promise<void>;
  getMembership(userId: string, accountId: string): Promise<Membership | undefined>;
  membershipsOfUser(userId: string): Promise<Membership[]>;
  membersOfAccount(accountId: string): Promise<Membership[]>;
  /** False when there was no such membership. */
  removeMembership(userId: string, accountId: string): Promise<boolean>;
}

/** E-mail addresses compare lower-cased and trimmed, as everywhere else in the service. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (email: string): boolean => email.length <= 254 && emailPattern.test(email);
