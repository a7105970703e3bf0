import { updateProject } from '../../../core/projects/project-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { formErrors, isChangedMeanwhile } from '../../../http/pages/form-errors';
import { projectChangesOf, projectFields, projectIdOf, projectPage } from './project-pages';

export const handler = dashboardPage(
  updateProjectPageRoute,
  async (request) => {
    const id = projectIdOf(request);
    // The tag of what the form was filled from: someone else's save since then is not overwritten.
    const etag = request.form.get('etag') || undefined;
    const fields = projectFields(request.form);
    try {
      await updateProject(request.tenant, id, projectChangesOf(fields), projectDeps(), etag);
      return { redirect: `/dashboard/projects/${encodeURIComponent(id)}?done=saved` };
    } catch (error) {
      // Shown again against the project as it is now when someone else saved first; else as it was.
      const changed = isChangedMeanwhile(error);
      return projectPage(request, { errors: formErrors(error), form: fields, ...(changed || !etag ? {} : { etag }) }, changed ? 409 : 422);
    }
  },
  { adminOnly: true },
);
