import { checkAuthorizationRequest } from '../../core/oauth/authorization-request';
import { approveAuthorization, denyAuthorization } from '../../core/oauth/consent';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { ConsentAccountChangedPage } from '../../pages/views/consent-account-changed';
import { authorizeDecisionRoute } from '../../routes/oauth';
import { answerToFailedCheck } from './authorization-flow';

/**
 * The consent page's answer. The authorization request travels in the form and is checked again
 * (the form's CSRF token ties it to this session); Allow sends the code, Deny `access_denied`.
 */
export const handler = pageHandler(authorizeDecisionRoute, 'account', async (request) => {
  const deps = pageDepsFromEnvironment();
  const check = await checkAuthorizationRequest(new URLSearchParams(request.form.get('request') ?? ''), deps);
  if (check.outcome !== 'valid') return answerToFailedCheck(check, request);
  const { membership, user } = request.signedIn!;
  if (request.form.get('decision') !== 'allow') return { redirect: denyAuthorization(check.request, request.origin) };
  // The page named the account (and so the role and scopes) it asked for; the session may have
  // switched to another since (another tab), whose grant nobody was shown.
  if (request.form.get('account_id') !== membership!.account_id) {
    return {
      page: ConsentAccountChangedPage({
        viewer: request.signedIn!.viewer,
        application: check.request.client.name,
        authorizeUrl: `/oauth/authorize?${request.form.get('request') ?? ''}`,
      }),
      status: 409,
    };
  }
  return {
    redirect: await approveAuthorization(
      {
        request: check.request,
        accountId: membership!.account_id,
        userId: user.id,
        role: membership!.role,
        issuer: request.origin,
        origin: request.from,
      },
      deps,
    ),
  };
});
