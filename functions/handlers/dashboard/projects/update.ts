import { updateProject } from '../../../core/projects/project-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { formErrors } from '../../../http/pages/form-errors';
import { projectChangesOf, projectFields, projectIdOf, projectPage } from './project-pages';

export const handler = dashboardPage(
  updateProjectPageRoute,
  async (request) => {
    const id = projectIdOf(request);
    const fields = projectFields(request.form);
    try {
      await updateProject(request.tenant, id, projectChangesOf(fields), projectDeps());
      return { redirect: `/dashboard/projects/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      return projectPage(request, { errors: formErrors(error), form: fields }, 422);
    }
  },
  { adminOnly: true },
);
