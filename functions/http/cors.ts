/**
 * Cross-origin settings, applied by API Gateway in AWS and by the local server locally.
 * Credentials travel in headers, never cookies, so any origin may call.
 */
export const corsSettings = {
  allowOrigins: ['*'],
  allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'X-API-Key', 'Idempotency-Key', 'Content-Type', 'If-None-Match', 'If-Match'],
  exposeHeaders: [
    'X-Request-Id',
    'Link',
    'Retry-After',
    'Idempotent-Replayed',
    'Location',
    'RateLimit',
    'RateLimit-Policy',
    'Deprecation',
    'Sunset',
    'ETag',
  ],
  maxAgeSeconds: 600,
} as const;
