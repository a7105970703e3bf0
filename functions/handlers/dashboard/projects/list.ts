import { dashboardPage } from '../../../http/pages/dashboard-page';
import { projectsRoute } from '../../../routes/dashboard-resources';
import { projectsPage } from './project-pages';

const notices: Record<string, string> = { deleted: 'The project is deleted.' };

export const handler = dashboardPage(projectsRoute, async (request) =>
  projectsPage(request, { notice: notices[request.query.get('done') ?? ''] }),
);
