import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventRepository } from '../../adapters/dynamodb/event-repository';
import { listDeployments } from '../../core/deployments/deployment-use-cases';
import { listEvents } from '../../core/events/list-events';
import { totalOnly } from '../../core/pagination';
import { listFindings } from '../../core/security/security-use-cases';
import { listWorkflows } from '../../core/workflows/workflow-use-cases';
import { dashboardPage } from '../../http/pages/dashboard-page';
import { HomePage } from '../../pages/views/dashboard/home';
import { dashboardHomeRoute } from '../../routes/dashboard';
import { deploymentReadDeps } from '../deployments/deps';
import { securityDeps } from '../security/deps';
import { workflowReadDeps } from '../workflows/deps';

const latestEvents = { page: 1, perPage: 10, sort: 'created_at' as const, order: 'desc' as const };

/** Home: what needs attention (the counts, failed webhooks first) and the account's latest events. */
export const handler = dashboardPage(dashboardHomeRoute, async ({ shell, tenant, failedWebhooks, signedIn }) => {
  // Each count is a single count query, side by side with the events; the account and the failed
  // webhooks' count came with the session.
  const [workflows, findings, deployments, events, failed] = await Promise.all([
    listWorkflows(tenant, totalOnly('created_at'), { status: 'running' }, workflowReadDeps()),
    listFindings(tenant, totalOnly('created_at'), { severity: 'critical', status: 'open' }, securityDeps()),
    listDeployments(tenant, totalOnly('created_at'), { status: 'in_progress' }, deploymentReadDeps()),
    listEvents(tenant, latestEvents, {}, { events: dynamoEventRepository(tableFromEnvironment()), now: () => Date.now() }),
    failedWebhooks(),
  ]);
  return {
    page: HomePage({
      shell,
      counts: {
        runningWorkflows: workflows.total,
        openCriticalFindings: findings.total,
        deploymentsInProgress: deployments.total,
        failedWebhooks: failed,
      },
      events: events.items,
      accountEmail: signedIn.account?.email ?? '',
    }),
  };
});
