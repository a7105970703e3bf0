import type { ServiceEvent } from '../../../core/events/event';
import type { Shell } from '../../dashboard-shell';
import { Layout } from '../../layout';
import { Alert } from '../../parts/alert';
import { Card } from '../../parts/card';
import { RecordTable } from '../../parts/record-table';
import { Time } from '../../parts/time';

export interface HomeCounts {
  runningWorkflows: number;
  openCriticalFindings: number;
  deploymentsInProgress: number;
  failedWebhooks: number;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * What an event is about (its `id`; a review's `review_id`; the `workflow_id` of a stage completed
 * and of a workflow completed, whose data is a summary without the workflow's own `id`), and the
 * dashboard page that shows it, when one does: a review and its comments are listed on their
 * project's page.
 */
const objectOfEvent = (event: ServiceEvent): { id: string | undefined; href: string | undefined } => {
  const id = text(event.data.id) ?? text(event.data.review_id) ?? text(event.data.workflow_id);
  if (!id) return { id, href: undefined };
  const prefix = id.slice(0, id.indexOf('_') + 1);
  const pages: Record<string, string> = {
    proj_: '/dashboard/projects/',
    wf_: '/dashboard/workflows/',
    dep_: '/dashboard/deployments/',
    fnd_: '/dashboard/security/findings/',
    scan_: '/dashboard/security/scans/',
    test_: '/dashboard/tests/',
    run_: '/dashboard/tests/',
    wh_: '/dashboard/webhooks/',
  };
  const projectId = text(event.data.project_id);
  if ((prefix === 'rev_' || prefix === 'rvc_') && projectId) return { id, href: `/dashboard/projects/${encodeURIComponent(projectId)}` };
  return { id, href: pages[prefix] ? `${pages[prefix]}${encodeURIComponent(id)}` : undefined };
};

const Count = (props: { label: string; value: number; href: string; alarming?: boolean }) => (
  <a className={props.alarming && props.value > 0 ? 'stat stat--alarm' : 'stat'} href={props.href}>
    <span className="stat__value">{props.value}</span>
    <span className="stat__label">{props.label}</span>
  </a>
);

export const HomePage = (props: { shell: Shell; counts: HomeCounts; events: ServiceEvent[]; accountEmail: string }) => (
  <Layout title="Home" shell={props.shell}>
    <h1>Home</h1>
    {props.counts.failedWebhooks > 0 && (
      <Alert
        kind="error"
        title={props.counts.failedWebhooks === 1 ? '1 webhook has failed' : `${props.counts.failedWebhooks} webhooks have failed`}
      >
        <p>
          Its deliveries exhausted every retry, so it receives no new events until you re-enable it. Events meanwhile are kept:{' '}
          <a href="/dashboard/webhooks?status=failed">see the failed webhooks</a>, then re-enable and recover.
        </p>
      </Alert>
    )}
    <section aria-labelledby="counts-heading" className="stats">
      <h2 id="counts-heading" className="visually-hidden">
        At a glance
      </h2>
      <Count label="Running workflows" value={props.counts.runningWorkflows} href="/dashboard/workflows?status=running" />
      <Count
        label="Open critical findings"
        value={props.counts.openCriticalFindings}
        href="/dashboard/security?severity=critical&status=open"
        alarming
      />
      <Count label="Deployments in progress" value={props.counts.deploymentsInProgress} href="/dashboard/deployments?status=in_progress" />
      <Count label="Failed webhooks" value={props.counts.failedWebhooks} href="/dashboard/webhooks?status=failed" alarming />
    </section>
    <Card>
      <h2>Activity</h2>
      <RecordTable
        caption="Latest events, newest first"
        headings={['Event', 'Object', 'When']}
        records={props.events}
        empty={`No events yet in ${props.shell.mode} mode. They appear here as workflows, security scans, deployments and code reviews run, and as a webhook fails or is re-enabled (creating or editing a project sends none).`}
        row={(event) => {
          const { id, href } = objectOfEvent(event);
          return (
            <tr key={event.id}>
              <td>
                <code>{event.type}</code>
              </td>
              <td>{href ? <a href={href}>{id}</a> : <span className="muted">{id ?? '—'}</span>}</td>
              <td>
                <Time iso={event.created_at} />
              </td>
            </tr>
          );
        }}
      />
    </Card>
    <p className="muted">
      Account e-mail: {props.accountEmail}. <a href="/dashboard/accounts">Switch account</a>
    </p>
  </Layout>
);
