import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { revokeToken } from '../../core/oauth/tokens';
import type { HttpResponse } from '../response';
import { authenticatedClient } from './client-authentication';
import { readOAuthParameters } from './oauth-body';
import { OAuthProblem } from './oauth-problem';

/** RFC 7009: 200 with no body whether or not the token was known; only the client's own tokens are touched. */
export const handleRevokeRequest = async (
  event: APIGatewayProxyEventV2,
  deps: Parameters<typeof revokeToken>[2],
): Promise<HttpResponse> => {
  const parameters = readOAuthParameters(event);
  const client = await authenticatedClient(event, parameters, deps);
  if (!parameters.token) throw new OAuthProblem('invalid_request', 'Missing parameter: token');
  await revokeToken(client, parameters.token, deps);
  return { statusCode: 200, headers: {}, body: '' };
};
