import { checkAuthorizationRequest } from '../../core/oauth/authorization-request';
import { approveAuthorization, consentCovers, grantableScopes } from '../../core/oauth/consent';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { ConsentPage } from '../../pages/views/consent';
import { authorizeRoute } from '../../routes/oauth';
import { answerToFailedCheck } from './authorization-flow';

/**
 * `GET /oauth/authorize`: the request is checked first (RFC 6749 4.1.2.1: a bad client or redirect
 * URI is an error page, anything else an error sent back), then the person signs in and picks an
 * account if needed, then consents, unless they granted the same scopes to this application before.
 */
export const handler = pageHandler(authorizeRoute, 'public', async (request) => {
  const deps = pageDepsFromEnvironment();
  const check = await checkAuthorizationRequest(request.query, deps);
  if (check.outcome !== 'valid') return answerToFailedCheck(check, request);

  const here = `/oauth/authorize?${request.event.rawQueryString}`;
  const { signedIn } = request;
  if (!signedIn || signedIn.session.stage !== 'active') return { redirect: `/dashboard/sign-in?return_to=${encodeURIComponent(here)}` };
  if (!signedIn.membership) return { redirect: `/dashboard/accounts?return_to=${encodeURIComponent(here)}` };

  const { request: authorization } = check;
  const { membership, user, viewer } = signedIn;
  const { granted, withheld } = grantableScopes(membership.role, authorization.scopes);
  const approve = () =>
    approveAuthorization(
      {
        request: authorization,
        accountId: membership.account_id,
        userId: user.id,
        role: membership.role,
        issuer: request.origin,
        origin: request.from,
      },
      deps,
    );
  if (granted.length === 0) return { redirect: await approve() };
  // Remembered consent skips the page only for a confidential client: a public (native) one may be
  // any program on the machine, at any loopback port, so it is asked every time (RFC 8252 8.6).
  if (
    withheld.length === 0 &&
    authorization.client.type === 'confidential' &&
    consentCovers(await deps.grants.getConsent(membership.account_id, user.id, authorization.client.id), granted)
  ) {
    return { redirect: await approve() };
  }

  const owner = await deps.accounts.get(authorization.client.account_id);
  return {
    page: ConsentPage({
      viewer,
      application: { name: authorization.client.name, ownerAccountId: authorization.client.account_id, ownerEmail: owner?.email ?? null },
      accountId: membership.account_id,
      role: membership.role,
      granted,
      withheld,
      redirectHost: new URL(authorization.redirectUri).host,
      request: request.event.rawQueryString,
    }),
    formTargets: [new URL(authorization.redirectUri).origin],
  };
});
