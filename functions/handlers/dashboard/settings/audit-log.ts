import { dashboardPage } from '../../../http/pages/dashboard-page';
import { pageDepsFromEnvironment } from '../../../http/pages/page-deps';
import { AuditLogPage } from '../../../pages/views/dashboard/settings/audit-log';
import { auditLogRoute } from '../../../routes/dashboard-resources';
import { memberEmails } from './member-emails';

/** The account's audit log, for its admins only (it names people and addresses). */
export const handler = dashboardPage(
  auditLogRoute,
  async (request) => {
    const deps = pageDepsFromEnvironment();
    const records = await deps.audit.list(request.tenant.accountId, 200);
    const emails = await memberEmails(
      records.flatMap((r) => (r.actor.type === 'user' && r.actor.id ? [r.actor.id] : [])),
      deps,
    );
    return { page: AuditLogPage({ shell: request.shell, records, emails }) };
  },
  { adminOnly: true },
);
