import { createProject } from '../../../core/projects/project-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { createProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { fieldErrors, formErrors } from '../../../http/pages/form-errors';
import { projectFieldLabels } from '../../../pages/views/dashboard/projects/projects';
import { newProjectOf, projectFields, projectsPage } from './project-pages';

export const handler = dashboardPage(
  createProjectPageRoute,
  async (request) => {
    const fields = projectFields(request.form);
    try {
      const project = await createProject(request.tenant, newProjectOf(fields), projectDeps());
      return { redirect: `/dashboard/projects/${encodeURIComponent(project.id)}?done=created` };
    } catch (error) {
      const errors = formErrors(error, projectFieldLabels);
      return projectsPage(request, { errors, fieldErrors: fieldErrors(error), form: fields }, 422);
    }
  },
  { adminOnly: true },
);
