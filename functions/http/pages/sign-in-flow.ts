import { matchesRegisteredRedirect, type OAuthClientRepository } from '../../core/oauth/client';
import { isOAuthValue } from '../../core/oauth/oauth-formats';
import type { Session } from '../../core/sessions/session';
import type { UserRepository } from '../../core/users/user';
import { safeReturnPath } from './origin';

/**
 * Where a person goes once signed in: where they were going, unless they must first pick the
 * account to act for (several accounts, or none yet).
 */
export const destinationAfterSignIn = async (
  session: Session,
  returnTo: string | undefined,
  deps: { users: UserRepository },
): Promise<string> => {
  const target = safeReturnPath(returnTo) ?? '/dashboard';
  if (session.account_id) return target;
  const memberships = await deps.users.membershipsOfUser(session.user_id);
  return memberships.length === 1 ? target : `/dashboard/accounts?return_to=${encodeURIComponent(target)}`;
};

/**
 * A form whose answer may end in a redirect to an OAuth client (sign-in on the way to
 * `/oauth/authorize`) must name the client's origin in the CSP's `form-action`, which browsers
 * apply to the redirects after a form too. Only a redirect URI the client registered counts.
 */
export const formTargetsFor = async (returnTo: string | undefined, deps: { clients: OAuthClientRepository }): Promise<string[]> => {
  const path = safeReturnPath(returnTo);
  if (!path?.startsWith('/oauth/authorize?')) return [];
  const params = new URL(path, 'http://return.invalid').searchParams;
  const clientId = params.get('client_id') ?? '';
  const client = isOAuthValue('clientId', clientId) ? await deps.clients.get(clientId) : undefined;
  if (!client) return [];
  const redirect = params.get('redirect_uri') ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  return redirect && matchesRegisteredRedirect(client, redirect) ? [new URL(redirect).origin] : [];
};

/** The application a sign-in serves, when it is a step of an authorization: its name, for the page. */
export const applicationOf = async (
  returnTo: string | undefined,
  deps: { clients: OAuthClientRepository },
): Promise<string | undefined> => {
  const path = safeReturnPath(returnTo);
  if (!path?.startsWith('/oauth/authorize?')) return undefined;
  const clientId = new URL(path, 'http://return.invalid').searchParams.get('client_id') ?? '';
  return isOAuthValue('clientId', clientId) ? (await deps.clients.get(clientId))?.name : undefined;
};
