import { getTestObject } from '../../../core/testing/test-use-cases';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { TestObjectPage } from '../../../pages/views/dashboard/tests/test-object';
import { testPageRoute } from '../../../routes/dashboard-resources';
import { testReadDeps } from '../../testing/deps';

export const handler = dashboardPage(testPageRoute, async (request) => ({
  page: TestObjectPage({
    shell: request.shell,
    object: await getTestObject(request.tenant, request.event.pathParameters?.id ?? '', testReadDeps()),
  }),
}));
