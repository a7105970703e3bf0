import { listSessions } from '../../core/sessions/manage-sessions';
import { pageDepsFromEnvironment, pageHandler } from '../../http/pages/page-deps';
import { SessionsPage } from '../../pages/views/sessions';
import { sessionsRoute } from '../../routes/dashboard';

const notices: Record<string, string> = {
  others: 'Every other session is signed out.',
  one: 'That session is signed out.',
};

export const handler = pageHandler(sessionsRoute, 'signed_in', async ({ signedIn, query }) => ({
  page: SessionsPage({
    viewer: signedIn!.viewer,
    sessions: await listSessions(signedIn!.session, pageDepsFromEnvironment()),
    notice: notices[query.get('ended') ?? ''],
  }),
}));
