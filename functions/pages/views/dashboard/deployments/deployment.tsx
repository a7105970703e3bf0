import type { DeploymentView } from '../../../../core/deployments/deployment';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { ConfirmForm } from '../../../parts/confirm-form';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Duration, Time } from '../../../parts/time';

export const DeploymentPage = (props: { shell: Shell; deployment: DeploymentView; notice?: string }) => {
  const { shell, deployment: d } = props;
  const live = d.status === 'queued' || d.status === 'in_progress' || d.rollback?.status === 'in_progress';
  return (
    <Layout title={`Deployment ${d.id}`} shell={shell}>
      <p>
        <a href="/dashboard/deployments">All deployments</a>
      </p>
      <h1>Deployment {d.id}</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      {d.status === 'completed' && d.rollback?.status !== 'in_progress' && (
        <ConfirmForm
          action={`/dashboard/deployments/${encodeURIComponent(d.id)}/rollback`}
          csrfToken={shell.viewer.csrfToken}
          confirm={`Roll back ${d.environment} to its previous deployment?`}
        >
          <Button variant="danger">Roll back</Button>
        </ConfirmForm>
      )}
      <section id="deployment-state" data-live={live ? 'deployment' : undefined}>
        <Card>
          <p role="status">
            <StatusBadge status={d.status} /> {d.environment} · {d.provider} · branch <code>{d.branch}</code>
          </p>
          <ul className="plain-list">
            <li>
              Project: <a href={`/dashboard/projects/${encodeURIComponent(d.project_id)}`}>{d.project_id}</a>
            </li>
            <li>Version: {d.version ?? <span className="muted">none yet</span>}</li>
            <li>URL: {d.url ? <code className="break">{d.url}</code> : <span className="muted">none yet</span>}</li>
            <li>
              Started <Time iso={d.started_at} empty="not yet" />, took <Duration ms={d.duration_ms} />
            </li>
            {d.rolled_back_to && (
              <li>
                Rolled back to <a href={`/dashboard/deployments/${encodeURIComponent(d.rolled_back_to)}`}>{d.rolled_back_to}</a>
              </li>
            )}
            {d.rolled_back_from && (
              <li>
                Current again after a rollback from{' '}
                <a href={`/dashboard/deployments/${encodeURIComponent(d.rolled_back_from)}`}>{d.rolled_back_from}</a>
              </li>
            )}
          </ul>
          {d.rollback && (
            <p>
              Rollback <StatusBadge status={d.rollback.status} /> ({d.rollback.trigger}), requested <Time iso={d.rollback.requested_at} />
              {d.rollback.error && `: ${d.rollback.error}`}
            </p>
          )}
          {d.error && (
            <Alert kind="error" title={`Failed at ${d.error.step}`}>
              <p>{d.error.message}</p>
            </Alert>
          )}
        </Card>
        <Card>
          <h2>Health checks</h2>
          <RecordTable
            className="table table--compact"
            caption="Health checks, latest last"
            headings={['When', 'Healthy', 'Status code', 'Latency', 'What was seen']}
            records={d.health_checks}
            empty="No health checks yet."
            row={(h) => (
              <tr key={h.checked_at}>
                <td>
                  <Time iso={h.checked_at} />
                </td>
                <td>
                  <StatusBadge status={h.healthy ? 'healthy' : 'failed'} label={h.healthy ? 'healthy' : 'unhealthy'} />
                </td>
                <td>{h.status_code ?? '—'}</td>
                <td>
                  <Duration ms={h.latency_ms} />
                </td>
                <td>{h.message}</td>
              </tr>
            )}
          />
        </Card>
      </section>
    </Layout>
  );
};
