/**
 * Headers of every HTML page. The CSP allows no inline script or style at all, only files of this
 * origin; no page may be framed (consent pages above all: clickjacking); no address of a page,
 * which may carry a code or token, leaves in a Referer.
 */
export const contentSecurityPolicy = (formTargets: readonly string[] = []): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    // The script refetches the page it is on for its live parts (a workflow's stages), nothing else.
    "connect-src 'self'",
    // A form may post here only; a consent form's answer is a redirect to the client, which
    // browsers check against this list too.
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');

export const pageSecurityHeaders = (options: { secure: boolean; formTargets?: readonly string[] }): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(options.formTargets),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  // Pages hold CSRF tokens and personal data: never kept by a cache.
  'Cache-Control': 'no-store',
  ...(options.secure ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
});
