import { modeCookie } from '../../http/pages/cookies';
import { safeReturnPath } from '../../http/pages/origin';
import { pageHandler } from '../../http/pages/page-deps';
import { switchModeRoute } from '../../routes/dashboard-resources';

/** The "Test mode" switch: every page shows the mode chosen here until it is switched back. */
export const handler = pageHandler(
  switchModeRoute,
  'account',
  async ({ form, secure }) => ({
    cookies: [modeCookie(secure, form.get('mode') === 'test' ? 'test' : 'live')],
    redirect: safeReturnPath(form.get('return_to')) ?? '/dashboard',
  }),
  // The switch names the mode it switches to, so a page of either mode (or account) may send it.
  { formsBoundTo: 'none' },
);
