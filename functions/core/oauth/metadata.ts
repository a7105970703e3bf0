import { allScopes } from '../credentials/scopes';

/**
 * RFC 8414 metadata. `issuer` is the origin itself, exactly as clients are told it, so strict
 * clients (which compare it with the address they fetched) accept it.
 */
export const authorizationServerMetadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/oauth/authorize`,
  token_endpoint: `${issuer}/oauth/token`,
  revocation_endpoint: `${issuer}/oauth/revoke`,
  scopes_supported: [...allScopes],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  code_challenge_methods_supported: ['S256'],
  // RFC 9207: every authorization response names its issuer in `iss`.
  authorization_response_iss_parameter_supported: true,
  // The API reference page, which shows the OAuth security scheme and its scopes.
  service_documentation: `${issuer}/docs`,
});
