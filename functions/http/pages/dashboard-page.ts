import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoIdempotencyStore } from '../../adapters/dynamodb/idempotency-store';
import { dynamoWebhookRepository } from '../../adapters/dynamodb/webhook-repository';
import { ApiError, conflict } from '../../core/errors';
import type { Tenant } from '../../core/tenancy';
import type { Role } from '../../core/users/user';
import { type Shell, withFailedWebhooks } from '../../pages/dashboard-shell';
import { formIdFieldName, isFormId } from '../../pages/parts/post-form';
import { ActionFailedPage } from '../../pages/views/dashboard/action-failed';
import { ConfirmPage } from '../../pages/views/dashboard/confirm';
import { dashboardPageAbove } from '../../routes/dashboard-page-above';
import type { WebRouteDefinition } from '../../routes/route';
import { statusOf } from '../error-status';
import { readCookies, modeOfCookies } from './cookies';
import type { FormBinding } from './form-token';
import type { PageReads, PageRequest, PageResult, SignedIn } from './page-handler';
import { pageDepsFromEnvironment, pageHandler } from './page-deps';

/** A page of the dashboard, as its function sees the request: who, for which account, in which mode. */
export interface DashboardRequest extends PageRequest {
  signedIn: SignedIn;
  /** The account and mode whose data the page shows and changes: what an API key's tenant is. */
  tenant: Tenant;
  role: Role;
  /** What the layout shows on every page: account, role, mode, navigation. */
  shell: Shell;
  /**
   * The number of failed webhooks: on a GET the count read with the session (no round trip of its
   * own); after an action (POST) that answers with a page, read then, since the action may have
   * changed it. The pipeline awaits it for the navigation's badge; Home shows it in its banner.
   */
  failedWebhooks: () => Promise<number>;
  /** The person acting, for the rules of people (admin or viewer) and the audit log. */
  actor: { accountId: string; userId: string; role: Role; origin: PageRequest['from'] };
  /**
   * Called by an action of a `once` form (`PostForm`) just before it takes effect: the first sending
   * of that rendering of the form goes on, any later one (a reload of the answer, a second click,
   * the back button) is refused with 409, so a key or secret is not made twice, the second time
   * in place of the first one shown. A form sent without its id goes on.
   */
  takeEffectOnce: () => Promise<void>;
}

const webhooks = () => dynamoWebhookRepository(tableFromEnvironment());

/** Which form ids were sent: the idempotency records of the API (24 h), under keys of their own. */
const sentForms = () => dynamoIdempotencyStore(tableFromEnvironment());

const alreadySent =
  'This form was already sent, and what it asked for was done then: a reload or a second click sends a form again. ' +
  'A key or secret it made was shown once, in the answer to it; if it was not copied, make a new one.';

/** Admin-only actions are refused to viewers here, on the server, whatever the page showed. */
export const requireAdmin = (request: Pick<DashboardRequest, 'role'>): void => {
  if (request.role !== 'admin') {
    throw new ApiError('insufficient_scope', 'Only an admin of the account can do this; you are a viewer.', { required_role: 'admin' });
  }
};

export interface DashboardPageOptions extends PageReads {
  adminOnly?: boolean;
  /**
   * What the forms sent here must have been shown for: the account and mode (the default), or the
   * account alone for pages of the account's own (team, applications), which show and change the
   * same whatever the switch says, so another tab's switch does not refuse their forms.
   */
  formsBoundTo?: Exclude<FormBinding, 'none'>;
}

/**
 * A dashboard page: signed in, acting for an account the person still belongs to, in the mode of
 * the switch. Everything else (headers, CSRF, errors) is the page pipeline's.
 */
export const dashboardPage = (
  route: WebRouteDefinition,
  handle: (request: DashboardRequest) => Promise<PageResult>,
  options: DashboardPageOptions = {},
) => {
  const formsBoundTo = options.formsBoundTo ?? 'account_and_mode';
  return pageHandler(
    route,
    'account',
    async (request) => {
      const signedIn = request.signedIn as SignedIn;
      const membership = signedIn.membership as NonNullable<SignedIn['membership']>;
      const mode = modeOfCookies(readCookies(request.event), request.secure);
      const tenant: Tenant = { accountId: membership.account_id, mode };
      const role = membership.role;
      const here = `${request.event.rawPath}${request.event.rawQueryString ? `?${request.event.rawQueryString}` : ''}`;
      const shell: Shell = { viewer: signedIn.viewer, accountId: membership.account_id, role, mode, path: request.event.rawPath, here };
      // Failed webhooks stand out on every page. A page that is read (GET) has their count already;
      // an action counts afterwards, and only if it answers with a page.
      let counting: Promise<number> | undefined;
      const failedWebhooks = (): Promise<number> =>
        (counting ??=
          request.event.requestContext.http.method === 'GET' ? Promise.resolve(signedIn.failedWebhooks) : webhooks().failedCount(tenant));
      // A form bound to the account alone may be sent again from either mode: its sending is
      // recorded under one mode of the account, whichever mode it was sent in, so it acts once.
      const sentFormsOf: Tenant = formsBoundTo === 'account' ? { accountId: tenant.accountId, mode: 'live' } : tenant;
      let sentForm: string | undefined;
      const takeEffectOnce = async (): Promise<void> => {
        const formId = request.form.get(formIdFieldName) ?? '';
        if (request.event.requestContext.http.method !== 'POST' || !isFormId(formId) || sentForm !== undefined) return;
        const key = `dashboard-form#${formId}`;
        const claim = await sentForms().claim(sentFormsOf, key, request.event.rawPath, pageDepsFromEnvironment().clock.now());
        if (claim !== 'claimed') throw conflict(alreadySent);
        sentForm = key;
      };
      /** A form that did what it asked stays sent; one refused (422 to correct, 403, 404) or failed may be sent again. */
      const settleSentForm = async (status: number | undefined): Promise<void> => {
        if (sentForm === undefined) return;
        if (status !== undefined && status < 400)
          await sentForms().complete(
            sentFormsOf,
            sentForm,
            { statusCode: status, headers: {}, body: '' },
            pageDepsFromEnvironment().clock.now(),
          );
        else await sentForms().release(sentFormsOf, sentForm);
      };
      const act = async (): Promise<PageResult> => {
        if (options.adminOnly) requireAdmin({ role });
        return handle({
          ...request,
          signedIn,
          tenant,
          role,
          shell,
          failedWebhooks,
          actor: { accountId: membership.account_id, userId: signedIn.user.id, role, origin: request.from },
          takeEffectOnce,
        });
      };
      const acted = act().then(
        async (result) => {
          await settleSentForm('page' in result ? (result.status ?? 200) : 'redirect' in result ? 303 : result.response.statusCode);
          return result;
        },
        async (error: unknown) => {
          await settleSentForm(undefined);
          throw error;
        },
      );
      const result = await acted.catch((error: unknown): PageResult => {
        // An action refused (409, 403, 404…) is told inside the dashboard, with the way back to its page.
        if (request.event.requestContext.http.method !== 'POST' || !(error instanceof ApiError) || statusOf(error) >= 500) throw error;
        return {
          status: statusOf(error),
          page: ActionFailedPage({
            shell,
            message: error.message,
            requestId: request.requestId,
            back: dashboardPageAbove(request.event.rawPath),
          }),
        };
      });
      if (!('page' in result)) return result;
      return { ...result, page: withFailedWebhooks(await failedWebhooks(), result.page) };
    },
    {
      ...(options.attention ? { attention: true } : {}),
      // A form of the dashboard acts in the account (and mode) its page showed; sent after another
      // tab switched either, it is offered again from here.
      formsBoundTo,
      pageToReload: ({ event }) => dashboardPageAbove(event.rawPath),
      refusedInDashboard: true,
    },
  );
};

/** Whether a form's action was confirmed (in the dialog, or on the confirmation page). */
export const isConfirmed = (form: URLSearchParams): boolean => form.get('confirmed') === 'yes';

/**
 * The confirmation page for a destructive action posted without confirmation (no script ran to
 * ask in a dialog); undefined once confirmed, and the action may go ahead.
 */
export const confirmFirst = (
  request: Pick<DashboardRequest, 'form' | 'shell' | 'event'>,
  question: string,
  back: string,
): PageResult | undefined =>
  isConfirmed(request.form)
    ? undefined
    : {
        page: ConfirmPage({ shell: request.shell, question, action: request.event.rawPath, fields: [...request.form.entries()], back }),
      };
