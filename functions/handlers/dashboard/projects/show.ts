import { dashboardPage } from '../../../http/pages/dashboard-page';
import { projectPageRoute } from '../../../routes/dashboard-resources';
import { projectPage } from './project-pages';

const notices: Record<string, string> = { created: 'The project is created.', saved: 'Your changes are saved.' };

export const handler = dashboardPage(projectPageRoute, async (request) =>
  projectPage(request, { notice: notices[request.query.get('done') ?? ''] }),
);
