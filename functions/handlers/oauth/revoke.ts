import { revokeToken } from '../../core/oauth/tokens';
import { authenticatedClient } from '../../http/oauth/client-authentication';
import { readOAuthParameters } from '../../http/oauth/oauth-body';
import { createOAuthHandler } from '../../http/oauth/oauth-handler';
import { OAuthProblem } from '../../http/oauth/oauth-problem';
import { revokeRoute } from '../../routes/oauth';
import { oauthDeps } from './deps';

/** RFC 7009: 200 with no body whether or not the token was known; only the client's own tokens are touched. */
export const handler = createOAuthHandler(revokeRoute, async (event) => {
  const deps = oauthDeps();
  const parameters = readOAuthParameters(event);
  const client = await authenticatedClient(event, parameters, deps);
  if (!parameters.token) throw new OAuthProblem('invalid_request', 'Missing parameter: token');
  await revokeToken(client, parameters.token, deps);
  return { statusCode: 200, headers: {}, body: '' };
});
