/** An application registered by an account to act for other accounts (an OAuth 2.0 client). */
export interface OAuthClient {
  id: string;
  account_id: string;
  name: string;
  redirect_uris: string[];
  /** `confidential`: authenticates with its secret; `public`: has none and must use PKCE. */
  type: 'confidential' | 'public';
  /** SHA-256 of the current secret (confidential clients only); the value is shown once. */
  secret_hash: string | null;
  /** Prefix and last four characters of the secret, so a person can tell secrets apart. */
  secret_hint: string | null;
  secret_created_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What an owner may edit after registration. */
export type OAuthClientChanges = Pick<OAuthClient, 'name' | 'redirect_uris' | 'updated_at'>;

/** What the CLI and the pages show (never the hash). */
export type OAuthClientView = Omit<OAuthClient, 'secret_hash'>;

export const viewOfClient = ({ secret_hash: _hash, ...view }: OAuthClient): OAuthClientView => view;

export interface OAuthClientRepository {
  create(client: OAuthClient): Promise<void>;
  /** `consistent`: what a write just made (reads are eventually consistent otherwise). */
  get(id: string, options?: { consistent?: boolean }): Promise<OAuthClient | undefined>;
  ofAccount(accountId: string): Promise<OAuthClient[]>;
  /**
   * Replaces the name and redirect URIs of the account's client (last write wins, as an app's
   * settings form does); the client as now stored, or undefined when there is no such client of
   * that account. Never the id, type or secret.
   */
  update(accountId: string, id: string, changes: OAuthClientChanges): Promise<OAuthClient | undefined>;
  /**
   * Replaces the secret while it is still the one whose hash is `fromHash` (of two rotations at once,
   * one wins and the other is told `changed`); `not_found` when the client is gone.
   */
  replaceSecret(
    id: string,
    fromHash: string,
    secret: { hash: string; hint: string; created_at: string },
  ): Promise<'replaced' | 'changed' | 'not_found'>;
  /** False when there was no such client of that account. */
  delete(accountId: string, id: string): Promise<boolean>;
}

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** http on a loopback address: a native app's own listener (RFC 8252 7.3). */
export const isLoopbackRedirect = (uri: URL): boolean => uri.protocol === 'http:' && loopbackHosts.has(uri.hostname);

/** Why `value` cannot be registered as a redirect URI, or undefined when it can. */
export const redirectUriIssue = (value: string): string | undefined => {
  if (value.length > 2000) return 'must be at most 2000 characters';
  let uri: URL;
  try {
    uri = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (uri.protocol !== 'https:' && !isLoopbackRedirect(uri)) return 'must use https (http only on 127.0.0.1, [::1] or localhost)';
  if (uri.hash || value.includes('#')) return 'must not have a fragment';
  if (uri.username || uri.password) return 'must not carry a user name or password';
  if (value.includes('*')) return 'must be exact: no wildcards';
  return undefined;
};

/** The scheme and loopback host at the start of a redirect URI, and the port after them if any. */
const loopbackAuthority = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::\d{1,5})?(?=[/?]|$)/;

/** The URI as written, without its port, when it is a loopback one; compared as text, not as parsed. */
const loopbackWithoutPort = (value: string): string | undefined => {
  const authority = loopbackAuthority.exec(value);
  return authority ? `http://${authority[1]}${value.slice(authority[0].length)}` : undefined;
};

/**
 * Whether `presented` is one of the client's redirect URIs: an exact string match (RFC 9700 4.1.3),
 * except that a loopback URI may name any port, since a native app listens where it can (RFC 8252 7.3).
 * Only the port may differ, and the rest is compared as written: what a URL parser would make the
 * same (`127.1`, `/x/../cb`, `%63b`, a trailing `?`) is another URI.
 */
export const matchesRegisteredRedirect = (client: Pick<OAuthClient, 'redirect_uris'>, presented: string): boolean => {
  if (client.redirect_uris.includes(presented)) return true;
  const withoutPort = loopbackWithoutPort(presented);
  if (withoutPort === undefined || redirectUriIssue(presented)) return false;
  return client.redirect_uris.some((registered) => loopbackWithoutPort(registered) === withoutPort);
};
