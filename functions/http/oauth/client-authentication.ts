import isFormat from '@node-oauth/formats';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import basicAuth from 'basic-auth';
import type { OAuthClient } from '../../core/oauth/client';
import { authenticateClient, type TokenDeps } from '../../core/oauth/tokens';
import { OAuthProblem } from './oauth-problem';

const formDecode = (value: string): string => decodeURIComponent(value.replace(/\+/g, ' '));

const notBasicClient = (): OAuthProblem =>
  new OAuthProblem('invalid_client', 'The Authorization header must be HTTP Basic with the form-encoded client id and secret.');

/**
 * The client id and secret of an HTTP Basic header. RFC 6749 2.3.1 form-encodes both before they
 * are joined (strict clients send `oac%5F…`), so they are decoded here. Undefined without a header;
 * any header that names no client this way is a failed client authentication (401).
 */
export const basicClientCredentials = (authorization: string | undefined): { id: string; secret: string } | undefined => {
  if (!authorization) return undefined;
  const basic = basicAuth.parse(authorization);
  if (!basic) throw notBasicClient();
  let credentials: { id: string; secret: string };
  try {
    credentials = { id: formDecode(basic.name), secret: formDecode(basic.pass) };
  } catch {
    throw notBasicClient();
  }
  if (!credentials.id || !isFormat.vschar(credentials.id) || (credentials.secret !== '' && !isFormat.vschar(credentials.secret)))
    throw notBasicClient();
  return credentials;
};

/**
 * The client's credentials as RFC 6749 2.3 lets it send them: HTTP Basic, or `client_id` (and
 * `client_secret`) in the body. Never both: a `client_secret` beside a Basic header, or a
 * `client_id` naming another client than it, is refused (the same `client_id`, which some client
 * libraries always send, is not a second method).
 */
export const clientCredentials = (
  event: APIGatewayProxyEventV2,
  parameters: Record<string, string>,
): { id: string; secret?: string; basic: boolean } | undefined => {
  const basic = basicClientCredentials(event.headers.authorization);
  if (basic && (parameters.client_secret !== undefined || (parameters.client_id !== undefined && parameters.client_id !== basic.id))) {
    throw new OAuthProblem('invalid_request', 'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body.');
  }
  if (basic) return { ...basic, basic: true };
  if (parameters.client_id === undefined) return undefined;
  return {
    id: parameters.client_id,
    ...(parameters.client_secret !== undefined ? { secret: parameters.client_secret } : {}),
    basic: false,
  };
};

/**
 * Client authentication of RFC 6749 2.3.1, as the revocation endpoint does it: HTTP Basic or
 * `client_id` + `client_secret` in the body (never both), or a public client's bare `client_id`.
 */
export const authenticatedClient = async (
  event: APIGatewayProxyEventV2,
  parameters: Record<string, string>,
  deps: TokenDeps,
): Promise<OAuthClient> => {
  const credentials = clientCredentials(event, parameters);
  if (!credentials) throw new OAuthProblem('invalid_client', 'The client is not identified: send client_id.');
  const client = await authenticateClient(credentials.id, credentials.secret, deps);
  if (!client) throw new OAuthProblem('invalid_client', 'Client authentication failed.');
  return client;
};
