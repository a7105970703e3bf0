import { type DeploymentView, deploymentStatuses, environments } from '../../../../core/deployments/deployment';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Card } from '../../../parts/card';
import { ChoiceFilter, emptyList, FilterForm, ProjectIdFilter } from '../../../parts/list-filters';
import { type Paged, Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Time } from '../../../parts/time';

export interface DeploymentsPageProps extends Paged {
  shell: Shell;
  deployments: DeploymentView[];
  filters: { status?: string; environment?: string; project_id?: string };
  /** What is wrong with each refused filter (400): shown beside it, and nothing listed. */
  filterErrors?: Record<string, string>;
}

export const DeploymentsPage = (props: DeploymentsPageProps) => (
  <Layout title="Deployments" shell={props.shell}>
    <h1>Deployments</h1>
    <Card>
      <FilterForm action="/dashboard/deployments" label="Filter deployments" errors={props.filterErrors}>
        <ChoiceFilter
          label="Status"
          name="status"
          value={props.filters.status}
          values={deploymentStatuses}
          labelOf={(s) => s.replace('_', ' ')}
          error={props.filterErrors?.status}
        />
        <ChoiceFilter
          label="Environment"
          name="environment"
          value={props.filters.environment}
          values={environments}
          error={props.filterErrors?.environment}
        />
        <ProjectIdFilter value={props.filters.project_id} />
      </FilterForm>
      <RecordTable
        caption="Deployments, newest first"
        headings={['Deployment', 'Environment', 'Status', 'Version', 'URL', 'Created']}
        records={props.deployments}
        empty={emptyList(props.filterErrors, 'No deployments match. Start one with POST /v1/deployments.')}
        row={(d) => (
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
        )}
      />
      <Pagination {...props} />
    </Card>
  </Layout>
);
