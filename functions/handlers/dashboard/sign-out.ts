import { auditRecordOf } from '../../core/audit/audit';
import { isoTime } from '../../core/clock';
import { newId } from '../../core/ids';
import { endSession } from '../../core/sessions/manage-sessions';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { clearedSessionCookie } from '../../http/pages/page-handler';
import { signOutRoute } from '../../routes/dashboard';

/** Ends the session on the server, then forgets the cookie; signed out already is fine too. */
export const handler = pageHandler(signOutRoute, 'public', async (request) => {
  const deps = pageDepsFromEnvironment();
  const signedIn = request.signedIn;
  if (signedIn) {
    await endSession(signedIn.session, deps);
    if (signedIn.membership) {
      const now = deps.clock.now();
      await deps.audit.record(
        auditRecordOf(
          {
            accountId: signedIn.membership.account_id,
            action: 'user.signed_out',
            actor: { type: 'user', id: signedIn.user.id },
            targetId: signedIn.user.id,
            origin: request.from,
          },
          newId('auditRecord', now),
          isoTime(now),
        ),
      );
    }
  }
  return { redirect: '/dashboard/sign-in?notice=signed_out', cookies: [clearedSessionCookie(request)] };
});
