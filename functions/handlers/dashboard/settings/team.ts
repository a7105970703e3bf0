import { dashboardPage } from '../../../http/pages/dashboard-page';
import { teamRoute } from '../../../routes/dashboard-resources';
import { teamPage } from './team-page';

const notices: Record<string, string> = {
  removed: 'The member is removed from the account. Their personal access tokens stop working; the API keys they created keep working.',
};

export const handler = dashboardPage(teamRoute, async (request) => teamPage(request, { notice: notices[request.query.get('done') ?? ''] }));
