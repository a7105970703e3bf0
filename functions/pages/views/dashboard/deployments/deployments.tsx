import { type DeploymentView, deploymentStatuses, environments } from '../../../../core/deployments/deployment';
import { Button, Card } from '../../../components';
import { Empty, Pagination, ProjectIdFilter, SelectField, StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export interface DeploymentsPageProps {
  shell: Shell;
  deployments: DeploymentView[];
  page: number;
  totalPages: number;
  total: number;
  filters: { status?: string; environment?: string; project_id?: string };
  hrefOf(page: number): string;
}

const any = { value: '', label: 'Any' };

export const DeploymentsPage = (props: DeploymentsPageProps) => (
  <Layout title="Deployments" shell={props.shell}>
    <h1>Deployments</h1>
    <Card>
      <form method="get" action="/dashboard/deployments" className="filters-form" aria-label="Filter deployments">
        <SelectField
          label="Status"
          name="status"
          value={props.filters.status ?? ''}
          options={[any, ...deploymentStatuses.map((s) => ({ value: s, label: s.replace('_', ' ') }))]}
        />
        <SelectField
          label="Environment"
          name="environment"
          value={props.filters.environment ?? ''}
          options={[any, ...environments.map((e) => ({ value: e, label: e }))]}
        />
        <ProjectIdFilter value={props.filters.project_id} />
        <Button variant="secondary">Filter</Button>
      </form>
      {props.deployments.length === 0 ? (
        <Empty>No deployments match.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Deployments, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Deployment</th>
              <th scope="col">Environment</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">URL</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.deployments.map((d) => (
              <tr key={d.id}>
                <th scope="row">
                  <a href={`/dashboard/deployments/${encodeURIComponent(d.id)}`}>{d.id}</a>
                </th>
                <td>{d.environment}</td>
                <td>
                  <StatusBadge status={d.status} />
                </td>
                <td>{d.version ?? <span className="muted">—</span>}</td>
                <td className="break">{d.url ?? <span className="muted">—</span>}</td>
                <td>
                  <Time iso={d.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pagination page={props.page} totalPages={props.totalPages} total={props.total} hrefOf={props.hrefOf} />
    </Card>
  </Layout>
);
