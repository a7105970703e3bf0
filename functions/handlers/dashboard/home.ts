import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoEventRepository } from '../../adapters/dynamodb/event-repository';
import { listEvents } from '../../core/events/list-events';
import { dashboardPage } from '../../http/pages/dashboard-page';
import { HomePage } from '../../pages/views/dashboard/home';
import { dashboardHomeRoute } from '../../routes/dashboard';

const latestEvents = { page: 1, perPage: 10, sort: 'created_at' as const, order: 'desc' as const };

/** Home: what needs attention (the counts, failed webhooks first) and the account's latest events. */
export const handler = dashboardPage(
  dashboardHomeRoute,
  async ({ shell, tenant, failedWebhooks, signedIn }) => {
    // The counts are counter items read with the session (one batch); only the events are read here.
    const [events, failed] = await Promise.all([
      listEvents(tenant, latestEvents, {}, { events: dynamoEventRepository(tableFromEnvironment()), now: () => Date.now() }),
      failedWebhooks(),
    ]);
    const counts = signedIn.attention;
    if (!counts) throw new Error('Home reads its counts with the session: the page asks for them ({ attention: true }).');
    return {
      page: HomePage({
        shell,
        counts: { ...counts, failedWebhooks: failed },
        events: events.items,
        accountEmail: signedIn.account?.email ?? '',
      }),
    };
  },
  { attention: true },
);
