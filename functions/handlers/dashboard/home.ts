import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventRepository } from '../../adapters/dynamodb/event-repository';
import { listDeployments } from '../../core/deployments/deployment-use-cases';
import { listEvents } from '../../core/events/list-events';
import { listFindings } from '../../core/security/security-use-cases';
import { listWorkflows } from '../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../http/pages/page-deps';
import { HomePage } from '../../pages/views/dashboard/home';
import { dashboardHomeRoute } from '../../routes/dashboard';
import { deploymentDeps } from '../deployments/deps';
import { securityDeps } from '../security/deps';
import { workflowDeps } from '../workflows/deps';

const countOnly = { page: 1, perPage: 1, sort: 'created_at' as const, order: 'desc' as const };

/** Home: what needs attention (the counts, failed webhooks first) and the account's latest events. */
export const handler = dashboardPage(dashboardHomeRoute, async ({ shell, tenant }) => {
  const [workflows, findings, deployments, events, account] = await Promise.all([
    listWorkflows(tenant, countOnly, { status: 'running' }, workflowDeps()),
    listFindings(tenant, countOnly, { severity: 'critical', status: 'open' }, securityDeps()),
    listDeployments(tenant, countOnly, { status: 'in_progress' }, deploymentDeps()),
    listEvents(tenant, { ...countOnly, perPage: 10 }, {}, { events: dynamoEventRepository(tableFromEnvironment()), now: () => Date.now() }),
    pageDepsFromEnvironment().accounts.get(tenant.accountId),
  ]);
  return {
    page: HomePage({
      shell,
      counts: {
        runningWorkflows: workflows.total,
        openCriticalFindings: findings.total,
        deploymentsInProgress: deployments.total,
        failedWebhooks: shell.failedWebhooks,
      },
      events: events.items,
      accountEmail: account?.email ?? '',
    }),
  };
});
