import { notFound } from '../../core/errors';
import { endSessionById, signOutOtherSessions } from '../../core/sessions/manage-sessions';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { sessionsSignOutRoute } from '../../routes/dashboard';

/** `session_id=others`: sign out everywhere else; a session id: that one session (one's own only). */
export const handler = pageHandler(sessionsSignOutRoute, 'signed_in', async ({ signedIn, form, from }) => {
  const deps = pageDepsFromEnvironment();
  const target = form.get('session_id') ?? '';
  if (target === 'others') {
    await signOutOtherSessions(signedIn!.session, from, deps);
    return { redirect: '/dashboard/sessions?ended=others' };
  }
  if (target === signedIn!.session.id || !(await endSessionById(signedIn!.session, target, deps))) throw notFound('Session');
  return { redirect: '/dashboard/sessions?ended=one' };
});
