import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { timingSafeEqual } from 'node:crypto';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { RequestOrigin } from '../../core/audit/audit';
import type { Account } from '../../core/credentials/credential';
import type { Clock } from '../../core/clock';
import { ApiError } from '../../core/errors';
import { newSecretToken, isSecretTokenShaped } from '../../core/secret-token';
import { resolveSignedIn } from '../../core/sessions/manage-sessions';
import type { AttentionCounts, Session, SessionRepository, SignedInReads } from '../../core/sessions/session';
import type { Mode } from '../../core/tenancy';
import type { Membership, User, UserRepository } from '../../core/users/user';
import { logger } from '../../observability/logger';
import { type Shell, withFailedWebhooks } from '../../pages/dashboard-shell';
import { csrfFieldName } from '../../pages/parts/post-form';
import type { Viewer } from '../../pages/layout';
import { ErrorPage } from '../../pages/views/error-page';
import { FormShownElsewherePage } from '../../pages/views/form-shown-elsewhere';
import type { WebRouteDefinition } from '../../routes/route';
import type { HttpResponse } from '../response';
import { cookieNamesFor, modeOfCookies, readCookies, serializeCookie } from './cookies';
import { readFormBody } from './form-body';
import { actsElsewhere, type FormBinding, formToken, parseFormToken } from './form-token';
import { isSecureOrigin, publicOrigin, requestOriginOf } from './origin';
import { pageSecurityHeaders } from './security-headers';
import { parseSessionCookie, sessionCookieValue } from './session-cookie';
import { statusOf } from '../error-status';

/**
 * Who may open a page: anyone; a signed-in person; a signed-in person acting for an account they
 * still belong to; or a person half-way through sign-in, whose second factor is awaited.
 */
export type AccessLevel = 'public' | 'signed_in' | 'account' | 'two_factor';

export interface SignedIn {
  session: Session;
  user: User;
  /** The membership of the account the session acts for, while the user still has it. */
  membership?: Membership;
  /** The account the session acts for, while the user is a member of it. */
  account?: Account;
  viewer: Viewer;
  /** The account's failed webhooks in the mode shown, read with the session (0 without an account). */
  failedWebhooks: number;
  /** The account's attention counts in the mode shown, read with the session on pages that ask (Home). */
  attention?: AttentionCounts;
}

export interface PageRequest {
  event: APIGatewayProxyEventV2;
  requestId: string;
  /** The service's public origin, for links in e-mails and the OAuth issuer. */
  origin: string;
  /** True over https: cookies get `__Host-` and Secure. */
  secure: boolean;
  /** Every value of every query parameter, as sent. */
  query: URLSearchParams;
  /** The form of a POST (empty for a GET). Its CSRF token was checked already. */
  form: URLSearchParams;
  /**
   * The CSRF token of the forms of a page outside an account (sign-in, set password). A page that
   * acts for an account gives its forms `signedIn.viewer.csrfToken`, bound to that account and mode.
   */
  csrfToken: string;
  signedIn?: SignedIn;
  from: RequestOrigin;
}

/** What a page answers: HTML, a redirect (303 after a POST, 302 after a GET) or a ready response. */
export type PageResult = (
  | { page: VNode; status?: number; formTargets?: string[]; headers?: Record<string, string> }
  | { redirect: string }
  | { response: HttpResponse }
) & {
  cookies?: string[];
};

export interface PageDeps {
  sessions: SessionRepository;
  users: UserRepository;
  signedInReads: SignedInReads;
  clock: Clock;
}

/** What a page reads with the session besides what every page does: `attention`, Home's counts. */
export interface PageReads {
  attention?: boolean;
}

/** How a page function of an account (`account` access) checks the forms sent to it. */
export interface PageFormChecks {
  /**
   * What its forms must have been shown for, else 409 and nothing done: the account and mode by
   * default. Pages without an account check none.
   */
  formsBoundTo?: FormBinding;
  /** The page to open again after a form shown for another account or mode: the dashboard's Home unless said. */
  pageToReload?: (request: Pick<PageRequest, 'event' | 'form'>) => string;
  /**
   * Whether that refusal is told inside the dashboard's frame (navigation, account and mode as they
   * are now), as for a page of the dashboard; the plain header otherwise (the OAuth consent).
   */
  refusedInDashboard?: boolean;
}

export type PageOptions = PageReads & PageFormChecks;

export const htmlResponse = (status: number, page: VNode): HttpResponse => ({
  statusCode: status,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
  body: `<!doctype html>${renderToString(page)}`,
});

/** The session cookie of a session, for as long as the session may live at most. */
export const sessionCookie = (request: Pick<PageRequest, 'secure'>, token: string, session: Session, now: number): string =>
  serializeCookie(cookieNamesFor(request.secure).session, sessionCookieValue(session, token), {
    secure: request.secure,
    sameSite: 'Lax',
    maxAgeSeconds: (Date.parse(session.expires_at) - now) / 1000,
  });

/**
 * The session cookie again, after the session changed the account it acts for (the cookie names the
 * account; the token stays the same). None when the request carried no session.
 */
export const renewedSessionCookie = (request: Pick<PageRequest, 'secure' | 'event'>, session: Session, now: number): string[] => {
  const sent = parseSessionCookie(readCookies(request.event).get(cookieNamesFor(request.secure).session));
  return sent ? [sessionCookie(request, sent.token, session, now)] : [];
};

export const clearedSessionCookie = (request: Pick<PageRequest, 'secure'>): string =>
  serializeCookie(cookieNamesFor(request.secure).session, '', { secure: request.secure, sameSite: 'Lax', maxAgeSeconds: 0 });

const sameText = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The session a cookie names, with its user, the membership it acts under and the badge's count: one round trip. */
const signedInOf = async (cookie: string | undefined, mode: Mode, deps: PageDeps, reads: PageReads): Promise<SignedIn | undefined> => {
  const sent = parseSessionCookie(cookie);
  if (!sent) return undefined;
  const found = await resolveSignedIn(sent, mode, deps, reads);
  if (!found) return undefined;
  const { session, user, membership, account, failedWebhooks, attention } = found;
  return {
    session,
    user,
    membership,
    account,
    viewer: {
      email: user.email,
      accountId: membership ? session.account_id : null,
      // Every form of a page acting for an account is bound to the account and mode it shows.
      csrfToken: formToken(session.csrf_token, membership ? { accountId: membership.account_id, mode } : undefined),
    },
    failedWebhooks,
    ...(attention ? { attention } : {}),
  };
};

const withReturn = (path: string, returnTo: string): string => `${path}?return_to=${encodeURIComponent(returnTo)}`;

/** Where someone who may not open this page is sent instead, or undefined when they may. */
const redirectForAccess = (level: AccessLevel, signedIn: SignedIn | undefined, event: APIGatewayProxyEventV2): string | undefined => {
  const here = `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  const returnTo = event.requestContext.http.method === 'GET' ? here : '/dashboard';
  if (level === 'public') return undefined;
  if (level === 'two_factor') return signedIn?.session.stage === 'two_factor' ? undefined : '/dashboard/sign-in';
  if (!signedIn) return withReturn('/dashboard/sign-in', returnTo);
  if (signedIn.session.stage === 'two_factor') return '/dashboard/sign-in/two-factor';
  if (level === 'account' && !signedIn.membership) return withReturn('/dashboard/accounts', returnTo);
  return undefined;
};

const problemPage = (status: number, title: string, message: string, requestId?: string): HttpResponse =>
  htmlResponse(status, ErrorPage({ title, message, requestId }));

/**
 * The one shape of every page function: request id, security headers, the session (and where to
 * go without one), the form body and its CSRF token on every POST, and an error page for whatever
 * goes wrong, never a stack trace.
 */
export const createPageHandler = (
  route: WebRouteDefinition,
  access: AccessLevel,
  handle: (request: PageRequest) => Promise<PageResult>,
  deps: () => PageDeps,
  options: PageOptions = {},
) => {
  const binding: FormBinding = access === 'account' ? (options.formsBoundTo ?? 'account_and_mode') : 'none';
  const run = async (event: APIGatewayProxyEventV2): Promise<{ response: HttpResponse; cookies: string[]; formTargets?: string[] }> => {
    const requestId = event.requestContext.requestId;
    const origin = publicOrigin(event);
    const secure = isSecureOrigin(origin);
    const names = cookieNamesFor(secure);
    const cookies = readCookies(event);
    const setCookies: string[] = [];
    const isPost = event.requestContext.http.method === 'POST';

    const mode = modeOfCookies(cookies, secure);
    const signedIn = await signedInOf(cookies.get(names.session), mode, deps(), options);
    const elsewhere = redirectForAccess(access, signedIn, event);
    if (elsewhere) return { response: { statusCode: isPost ? 303 : 302, headers: { Location: elsewhere }, body: '' }, cookies: setCookies };

    // Forms before sign-in carry the token of a cookie of their own (double submit); after, the session's.
    let anonymousToken = cookies.get(names.csrf);
    if (!anonymousToken || !isSecretTokenShaped(anonymousToken)) anonymousToken = undefined;
    if (!signedIn && !anonymousToken) {
      anonymousToken = newSecretToken();
      setCookies.push(serializeCookie(names.csrf, anonymousToken, { secure, sameSite: 'Strict', maxAgeSeconds: 2 * 3600 }));
    }
    const csrfToken = signedIn?.session.csrf_token ?? (anonymousToken as string);

    let form = new URLSearchParams();
    if (isPost) {
      const body = readFormBody(event);
      if ('problem' in body) {
        return body.problem === 'too_large'
          ? { response: problemPage(413, 'Too much sent', 'The form sent more than this service accepts.', requestId), cookies: setCookies }
          : {
              response: problemPage(415, 'Not a form', 'Send this page a form (application/x-www-form-urlencoded).', requestId),
              cookies: setCookies,
            };
      }
      form = body.form;
      const sent = parseFormToken(form.get(csrfFieldName) ?? '');
      // Signed in, only the session's token: the anonymous cookie is one a page of another port or
      // subdomain could have planted beside the token it sends.
      const expected = signedIn ? signedIn.session.csrf_token : anonymousToken;
      // Defence in depth beside the token: a browser names a foreign sender here. (With
      // Referrer-Policy no-referrer a browser sends `Origin: null` for its own forms, so null passes.)
      const sentFrom = event.headers.origin;
      const ownOrigin = publicOrigin(event);
      const sameOrigin =
        event.headers['sec-fetch-site'] !== 'cross-site' && (sentFrom === undefined || sentFrom === 'null' || sentFrom === ownOrigin);
      if (!sameOrigin || expected === undefined || sent === undefined || !sameText(expected, sent.csrfToken)) {
        return {
          response: problemPage(
            403,
            'This form has expired',
            'The page you sent it from is too old, or it came from another site. Go back, reload the page and try again.',
            requestId,
          ),
          cookies: setCookies,
        };
      }
      // A form acts only for the account (and in the mode) its page was shown for: another tab may
      // have switched the session's since. Checked before the action, so nothing is done.
      const membership = signedIn?.membership;
      if (membership && binding !== 'none') {
        const now = { accountId: membership.account_id, mode };
        if (actsElsewhere(binding, sent.shownFor, now)) {
          const reload = options.pageToReload?.({ event, form }) ?? '/dashboard';
          const shell: Shell | undefined = options.refusedInDashboard
            ? { viewer: signedIn.viewer, accountId: now.accountId, role: membership.role, mode, path: event.rawPath, here: reload }
            : undefined;
          const page = FormShownElsewherePage({
            viewer: signedIn.viewer,
            shell,
            withMode: binding === 'account_and_mode',
            shownFor: sent.shownFor,
            now,
            reload,
          });
          return { response: htmlResponse(409, shell ? withFailedWebhooks(signedIn.failedWebhooks, page) : page), cookies: setCookies };
        }
      }
    }

    const result = await handle({
      event,
      requestId,
      origin,
      secure,
      query: new URLSearchParams(event.rawQueryString ?? ''),
      form,
      csrfToken,
      signedIn,
      from: requestOriginOf(event),
    });
    setCookies.push(...(result.cookies ?? []));
    if ('redirect' in result) {
      return { response: { statusCode: isPost ? 303 : 302, headers: { Location: result.redirect }, body: '' }, cookies: setCookies };
    }
    if ('response' in result) return { response: result.response, cookies: setCookies };
    const html = htmlResponse(result.status ?? 200, result.page);
    return { response: { ...html, headers: { ...html.headers, ...result.headers } }, cookies: setCookies, formTargets: result.formTargets };
  };

  return async (event: APIGatewayProxyEventV2, _context?: Context): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    logger.setCorrelationId(requestId);
    const started = performance.now();
    const secure = isSecureOrigin(publicOrigin(event));
    let outcome: Awaited<ReturnType<typeof run>>;
    try {
      outcome = await run(event);
    } catch (error) {
      if (error instanceof ApiError && statusOf(error) < 500) {
        outcome = {
          response: problemPage(statusOf(error), statusOf(error) === 404 ? 'Not found' : 'That did not work', error.message, requestId),
          cookies: [],
        };
      } else {
        logger.error('unexpected failure', { operation: route.operationId, error: error as Error });
        outcome = {
          response: problemPage(500, 'Something went wrong', 'Something went wrong on our side. Try again in a moment.', requestId),
          cookies: [],
        };
      }
    }
    const { response, cookies, formTargets } = outcome;
    logger.info('request', {
      operation: route.operationId,
      status: response.statusCode,
      duration_ms: Math.round(performance.now() - started),
    });
    return {
      ...response,
      headers: { ...pageSecurityHeaders({ secure, formTargets }), ...response.headers, 'X-Request-Id': requestId },
      ...(cookies.length > 0 ? { cookies } : {}),
    };
  };
};
