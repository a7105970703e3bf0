/**
 * The parts of `@node-oauth/oauth2-server` the token endpoint loads one by one: its two grant types
 * and two error classes. The package's entry (through its TokenHandler and Request) requires
 * `type-is`, which bundles the whole MIME database (147 KB) for a content-type check the endpoint
 * makes itself; see token-endpoint.ts.
 */

declare module '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js' {
  const AuthorizationCodeGrantType: new (options: {
    model: object;
    accessTokenLifetime: number;
    refreshTokenLifetime: number;
    alwaysIssueNewRefreshToken?: boolean;
    enablePlainPKCE?: boolean;
  }) => {
    /** Reads `code`, `redirect_uri`, `code_verifier` of the body (and `redirect_uri` of the query). */
    handle(
      request: { body: Record<string, string>; query: Record<string, string> },
      client: { id: string; grants: string[] },
    ): Promise<unknown>;
  };
  export default AuthorizationCodeGrantType;
}

declare module '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js' {
  const RefreshTokenGrantType: new (options: {
    model: object;
    accessTokenLifetime: number;
    refreshTokenLifetime: number;
    alwaysIssueNewRefreshToken?: boolean;
  }) => {
    /** Reads `refresh_token` and `scope` of the body. */
    handle(
      request: { body: Record<string, string>; query: Record<string, string> },
      client: { id: string; grants: string[] },
    ): Promise<unknown>;
  };
  export default RefreshTokenGrantType;
}

declare module '@node-oauth/oauth2-server/lib/errors/oauth-error.js' {
  import OAuth2Server from '@node-oauth/oauth2-server';
  const OAuthError: typeof OAuth2Server.OAuthError;
  export default OAuthError;
}

declare module '@node-oauth/oauth2-server/lib/errors/invalid-grant-error.js' {
  import OAuth2Server from '@node-oauth/oauth2-server';
  const InvalidGrantError: typeof OAuth2Server.InvalidGrantError;
  export default InvalidGrantError;
}

declare module '@node-oauth/formats' {
  /** RFC 6749 Appendix A's character classes, which the library checks parameters against. */
  const isFormat: { vschar(value: string): boolean };
  export default isFormat;
}
