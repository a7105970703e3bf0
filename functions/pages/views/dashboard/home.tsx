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

/** Where an event's object is shown in the dashboard, when it has a page. */
const pageOfEvent = (event: ServiceEvent): string | undefined => {
  const id = typeof event.data.id === 'string' ? event.data.id : undefined;
  if (!id) return undefined;
  const prefix = id.slice(0, id.indexOf('_') + 1);
  const pages: Record<string, string> = {
    proj_: '/dashboard/projects/',
    wf_: '/dashboard/workflows/',
    dep_: '/dashboard/deployments/',
    fnd_: '/dashboard/security/findings/',
    scan_: '/dashboard/security/scans/',
    test_: '/dashboard/tests/',
    run_: '/dashboard/tests/',
  };
  return pages[prefix] ? `${pages[prefix]}${encodeURIComponent(id)}` : undefined;
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
        empty={`No events yet in ${props.shell.mode} mode. They appear here as workflows, security scans, deployments and code reviews run (creating or editing a project sends none).`}
        row={(event) => {
          const href = pageOfEvent(event);
          const id = typeof event.data.id === 'string' ? event.data.id : '';
          return (
            <tr key={event.id}>
              <td>
                <code>{event.type}</code>
              </td>
              <td>{href ? <a href={href}>{id}</a> : <span className="muted">{id || '—'}</span>}</td>
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
