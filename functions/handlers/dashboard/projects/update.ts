import { getProject, updateProject } from '../../../core/projects/project-use-cases';
import { mergedAfterConflict, originalValuesOf } from '../../../http/pages/edit-conflict';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { updateProjectPageRoute } from '../../../routes/dashboard-resources';
import { projectDeps } from '../../projects/deps';
import { fieldErrors, formErrors, isChangedMeanwhile } from '../../../http/pages/form-errors';
import { projectFieldLabels, projectFormOf } from '../../../pages/views/dashboard/projects/projects';
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
      const original = originalValuesOf(request.form);
      if (!isChangedMeanwhile(error)) {
        const errors = formErrors(error, projectFieldLabels);
        return projectPage(request, { errors, fieldErrors: fieldErrors(error), form: fields, original, ...(etag ? { etag } : {}) }, 422);
      }
      // Someone else saved first: the project as it is now, with this person's own edits on top.
      const project = await getProject(request.tenant, id, projectDeps());
      return projectPage(
        request,
        { project, errors: formErrors(error), form: mergedAfterConflict(fields, original, projectFormOf(project)) },
        409,
      );
    }
  },
  { adminOnly: true },
);
