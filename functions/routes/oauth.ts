import { defineWebRoute, type WebRouteDefinition } from './route';

/** The stack of the authorization server's functions (`lib/domain-stack.ts`). */
export const oauthDomain = 'OAuth';

/**
 * The OAuth 2.0 authorization server at the service's origin. `/oauth/authorize` is a page (the
 * person signs in and consents); the others are machine endpoints (kind `oauth`).
 */
export const authorizeRoute = defineWebRoute({
  kind: 'page',
  domain: oauthDomain,
  operationId: 'oauthAuthorize',
  summary: 'Authorization endpoint: sign-in, consent, then the code (RFC 6749 4.1)',
  method: 'GET',
  path: '/oauth/authorize',
  handler: 'oauth/authorize',
  tableAccess: 'write',
});

export const authorizeDecisionRoute = defineWebRoute({
  kind: 'page',
  domain: oauthDomain,
  operationId: 'oauthAuthorizeDecision',
  summary: 'The consent page answered: Allow or Deny',
  method: 'POST',
  path: '/oauth/authorize',
  handler: 'oauth/authorize-decision',
  tableAccess: 'write',
});

export const tokenRoute = defineWebRoute({
  kind: 'oauth',
  domain: oauthDomain,
  operationId: 'oauthToken',
  summary: 'Token endpoint: authorization_code and refresh_token grants (RFC 6749 4.1.3, 6)',
  method: 'POST',
  path: '/oauth/token',
  handler: 'oauth/token',
  tableAccess: 'write',
});

export const revokeRoute = defineWebRoute({
  kind: 'oauth',
  domain: oauthDomain,
  operationId: 'oauthRevoke',
  summary: 'Token revocation (RFC 7009)',
  method: 'POST',
  path: '/oauth/revoke',
  handler: 'oauth/revoke',
  tableAccess: 'write',
});

export const metadataRoute = defineWebRoute({
  kind: 'oauth',
  domain: oauthDomain,
  operationId: 'oauthMetadata',
  summary: 'Authorization server metadata (RFC 8414)',
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  handler: 'oauth/metadata',
  tableAccess: 'none',
});

export const oauthRoutes: WebRouteDefinition[] = [authorizeRoute, authorizeDecisionRoute, tokenRoute, revokeRoute, metadataRoute];
