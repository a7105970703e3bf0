import { checkAuthorizationRequest } from '../../core/oauth/authorization-request';
import { approveAuthorization, denyAuthorization } from '../../core/oauth/consent';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { authorizeDecisionRoute } from '../../routes/oauth';
import { answerToFailedCheck } from './authorization-flow';

/**
 * The consent page's answer. The authorization request travels in the form and is checked again
 * (the form's CSRF token ties it to this session and the account the page named); Allow sends the
 * code, Deny `access_denied`.
 */
export const handler = pageHandler(
  authorizeDecisionRoute,
  'account',
  async (request) => {
    const deps = pageDepsFromEnvironment();
    const check = await checkAuthorizationRequest(new URLSearchParams(request.form.get('request') ?? ''), deps);
    if (check.outcome !== 'valid') return answerToFailedCheck(check, request);
    const { membership, user } = request.signedIn!;
    if (request.form.get('decision') !== 'allow') return { redirect: denyAuthorization(check.request, request.origin) };
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
  },
  {
    // The page named the account (and so the role and scopes) it asked for; after another tab
    // switched the session to another, nothing is granted and the page is offered again for it.
    // Not the mode: a grant acts in live mode whatever the switch says.
    formsBoundTo: 'account',
    pageToReload: ({ form }) => `/oauth/authorize?${form.get('request') ?? ''}`,
  },
);
