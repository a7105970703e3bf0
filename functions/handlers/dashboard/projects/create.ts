import { createProject } from '../../../core/projects/project-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { createProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { formErrors } from '../../../http/pages/form-errors';
import { newProjectOf, projectFields, projectsPage } from './project-pages';

export const handler = dashboardPage(
  createProjectPageRoute,
  async (request) => {
    const fields = projectFields(request.form);
    try {
      const project = await createProject(request.tenant, newProjectOf(fields), projectDeps());
      return { redirect: `/dashboard/projects/${encodeURIComponent(project.id)}?done=created` };
    } catch (error) {
      return projectsPage(request, { errors: formErrors(error), form: fields }, 422);
    }
  },
  { adminOnly: true },
);
