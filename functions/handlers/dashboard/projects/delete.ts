import { deleteProject } from '../../../core/projects/project-use-cases';
import { confirmFirst, dashboardPage } from '../../../http/pages/dashboard-page';
import { deleteProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { projectIdOf } from './project-pages';

export const handler = dashboardPage(
  deleteProjectPageRoute,
  async (request) => {
    const id = projectIdOf(request);
    const asked = confirmFirst(request, 'Delete this project?', `/dashboard/projects/${encodeURIComponent(id)}`);
    if (asked) return asked;
    await deleteProject(request.tenant, id, projectDeps());
    return { redirect: '/dashboard/projects?done=deleted' };
  },
  { adminOnly: true },
);
