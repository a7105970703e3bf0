import { type AuthorizationCheck, authorizationResponseUrl } from '../../core/oauth/authorization-request';
import type { PageRequest, PageResult } from '../../http/pages/page-handler';
import { ErrorPage } from '../../pages/views/error-page';
import { oauthErrorDescription } from '../../core/oauth/oauth-formats';

/** An authorization request that cannot go on: an error page (untrusted client or redirect URI) or the error sent back. */
export const answerToFailedCheck = (check: Exclude<AuthorizationCheck, { outcome: 'valid' }>, request: PageRequest): PageResult =>
  check.outcome === 'error_page'
    ? {
        page: ErrorPage({ title: 'This authorization request is not valid', message: check.message, requestId: request.requestId }),
        status: 400,
      }
    : {
        redirect: authorizationResponseUrl(
          check.redirectUri,
          { error: check.error, error_description: oauthErrorDescription(check.description), state: check.state },
          request.origin,
        ),
      };
