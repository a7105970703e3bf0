import { listRecentTests } from '../../../core/testing/test-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { TestsPage } from '../../../pages/views/dashboard/tests/tests';
import { testsRoute } from '../../../routes/dashboard-resources';
import { testReadDeps } from '../../testing/deps';

export const handler = dashboardPage(testsRoute, async (request) => {
  const projectId = request.query.get('project_id')?.trim() || undefined;
  const { suites, runs } = await listRecentTests(request.tenant, { project_id: projectId }, testReadDeps());
  return { page: TestsPage({ shell: request.shell, suites, runs, projectId }) };
});
