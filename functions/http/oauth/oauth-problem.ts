/**
 * An RFC 6749 5.2 error object, the answer OAuth clients expect from the token and revocation
 * endpoints (not the API's envelope): `{ "error": "invalid_grant", "error_description": "…" }`.
 */
export class OAuthProblem extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'server_error',
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400,
  ) {
    super(description);
    this.name = 'OAuthProblem';
  }
}
