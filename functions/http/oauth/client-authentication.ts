import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import basicAuth from 'basic-auth';
import type { OAuthClient } from '../../core/oauth/client';
import { authenticateClient, type TokenDeps } from '../../core/oauth/tokens';
import { OAuthProblem } from './oauth-problem';

const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));

/**
 * The client id and secret of an HTTP Basic header. RFC 6749 2.3.1 form-encodes both before they
 * are joined (strict clients send `oac%5F…`), so they are decoded here. Undefined without a header.
 */
export const basicClientCredentials = (authorization: string | undefined): { id: string; secret: string } | undefined => {
  if (!authorization) return undefined;
  const basic = basicAuth.parse(authorization);
  if (!basic) throw new OAuthProblem('invalid_client', 'The Authorization header must be HTTP Basic with the client id and secret.');
  try {
    return { id: formDecode(basic.name), secret: formDecode(basic.pass) };
  } catch {
    throw new OAuthProblem('invalid_client', 'The Authorization header is not a valid form-encoded client id and secret.');
  }
};

/**
 * Client authentication of RFC 6749 2.3.1, as the token endpoint does it: HTTP Basic or
 * `client_id` + `client_secret` in the body (never both), or a public client's bare `client_id`.
 */
export const authenticatedClient = async (
  event: APIGatewayProxyEventV2,
  parameters: Record<string, string>,
  deps: TokenDeps,
): Promise<OAuthClient> => {
  const authorization = event.headers.authorization;
  const basic = authorization ? basicAuth.parse(authorization) : undefined;
  if (authorization && !basic)
    throw new OAuthProblem('invalid_client', 'The Authorization header must be HTTP Basic with the client id and secret.');
  if (basic && (parameters.client_secret !== undefined || (parameters.client_id !== undefined && parameters.client_id !== basic.name))) {
    throw new OAuthProblem('invalid_request', 'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body.');
  }
  const clientId = basic ? decodeURIComponent(basic.name) : parameters.client_id;
  const secret = basic ? decodeURIComponent(basic.pass) : parameters.client_secret;
  if (!clientId) throw new OAuthProblem('invalid_client', 'The client is not identified: send client_id.');
  const client = await authenticateClient(clientId, secret, deps);
  if (!client) throw new OAuthProblem('invalid_client', 'Client authentication failed.');
  return client;
};
