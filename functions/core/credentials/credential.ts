import type { CredentialType } from './key-format';
import type { Scope } from './scopes';

export interface Account {
  id: string;
  email: string;
  created_at: string;
}

/** A stored credential. The value itself is never stored: only its SHA-256 `hash`. */
export interface Credential {
  id: string;
  account_id: string;
  type: CredentialType;
  name: string;
  scopes: Scope[];
  hash: string;
  /** Prefix and last four characters, so a person can tell keys apart. */
  hint: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /**
   * The person who made the key in the dashboard (a roll keeps the original one); null for keys the
   * system made (the first keys of an installation, the CLI, OAuth access tokens, whose person is
   * their grant's) and for keys made before creators were recorded. A personal access token acts
   * only while this person is a member of the account; the other keys stay the account's.
   */
  created_by_user_id: string | null;
  /** OAuth access tokens only: the grant they come from, whose standing decides whether they still work. */
  grant?: OAuthTokenOrigin;
}

/** The grant, application and person behind an OAuth access token. */
export interface OAuthTokenOrigin {
  id: string;
  client_id: string;
  user_id: string;
}

/** What the API and the CLI show of a credential (never the hash). */
export type CredentialView = Omit<Credential, 'hash'>;

export const viewOfCredential = ({ hash: _hash, ...view }: Credential): CredentialView => view;

export interface AccountRepository {
  /** Fails with a conflict when the e-mail is already taken. */
  create(account: Account): Promise<void>;
  get(id: string): Promise<Account | undefined>;
  list(limit: number): Promise<Account[]>;
}

/** What authenticating a request reads and writes: the credential by its hash, and its last use. */
export interface CredentialLookup {
  findByHash(hash: string): Promise<Credential | undefined>;
  /** Records a use; a no-op when `last_used_at` is already at or after `unlessAfter`. */
  touchLastUsed(hash: string, at: string, unlessAfter: string): Promise<void>;
}

export interface CredentialRepository extends CredentialLookup {
  findById(id: string): Promise<Credential | undefined>;
  create(credential: Credential): Promise<void>;
  listByAccount(accountId: string): Promise<Credential[]>;
  /** Sets `revoked_at` unless it is set already; returns the credential as stored afterwards. */
  revoke(id: string, at: string): Promise<Credential | undefined>;
  /**
   * A key's roll: stores `replacement` and sets the old credential's `expires_at`, in one
   * transaction, only while the old one is not revoked. The old one as stored after, or undefined.
   */
  roll(replacement: Credential, oldId: string, oldExpiresAt: string): Promise<Credential | undefined>;
}
