import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Mode } from '../../core/tenancy';

/**
 * The cookies of the pages. Over https (AWS) they are `__Host-` prefixed and Secure: the browser
 * then refuses any set by a subdomain or over http. On http://localhost (the local runtime) the
 * plain names, without Secure (DESIGN.md).
 */
export const cookieNamesFor = (secure: boolean) =>
  secure ? { session: '__Host-session', csrf: '__Host-csrf' } : { session: 'session', csrf: 'csrf' };

/** The request's cookies (API Gateway hands them over as `cookies`; a `cookie` header works too). */
export const readCookies = (event: APIGatewayProxyEventV2): Map<string, string> => {
  const pairs = event.cookies ?? event.headers.cookie?.split(/;\s*/) ?? [];
  const cookies = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    // The first of two cookies with one name wins, as in browsers' own parsing order (most specific path first).
    if (!cookies.has(name)) cookies.set(name, pair.slice(at + 1).trim());
  }
  return cookies;
};

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. Absent: a browser-session cookie. */
  maxAgeSeconds?: number;
  sameSite: 'Lax' | 'Strict';
}

/** A Set-Cookie value: always HttpOnly and Path=/ (which `__Host-` requires), no Domain. */
export const serializeCookie = (name: string, value: string, options: CookieOptions): string => {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  return parts.join('; ');
};

/** The mode every page shows, kept per browser as Stripe does: a cookie, `live` unless it says `test`. */
export const modeCookieName = (secure: boolean): string => (secure ? '__Host-mode' : 'mode');

export const modeOfCookies = (cookies: Map<string, string>, secure: boolean): Mode =>
  cookies.get(modeCookieName(secure)) === 'test' ? 'test' : 'live';

export const modeCookie = (secure: boolean, mode: Mode): string =>
  serializeCookie(modeCookieName(secure), mode, { secure, sameSite: 'Lax', maxAgeSeconds: 400 * 86_400 });
