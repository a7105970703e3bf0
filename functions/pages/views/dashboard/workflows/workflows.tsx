import { type Workflow, workflowStatuses } from '../../../../core/workflows/workflow';
import { Button, Card } from '../../../components';
import { Duration, Empty, Pagination, ProjectIdFilter, SelectField, StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export interface WorkflowsPageProps {
  shell: Shell;
  workflows: Workflow[];
  page: number;
  totalPages: number;
  total: number;
  filters: { status?: string; project_id?: string };
  hrefOf(page: number): string;
}

export const WorkflowsPage = (props: WorkflowsPageProps) => (
  <Layout title="Workflows" shell={props.shell}>
    <h1>Workflows</h1>
    <Card>
      <form method="get" action="/dashboard/workflows" className="filters-form" aria-label="Filter workflows">
        <SelectField
          label="Status"
          name="status"
          value={props.filters.status ?? ''}
          options={[{ value: '', label: 'Any' }, ...workflowStatuses.map((s) => ({ value: s, label: s }))]}
        />
        <ProjectIdFilter value={props.filters.project_id} />
        <Button variant="secondary">Filter</Button>
      </form>
      {props.workflows.length === 0 ? (
        <Empty>No workflows match. Start one with POST /v1/workflows.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Workflows, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Project</th>
              <th scope="col">Created</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {props.workflows.map((w) => (
              <tr key={w.id}>
                <th scope="row">
                  <a href={`/dashboard/workflows/${encodeURIComponent(w.id)}`}>{w.name}</a>
                </th>
                <td>
                  <StatusBadge status={w.status} />
                </td>
                <td>
                  <a href={`/dashboard/projects/${encodeURIComponent(w.project_id)}`}>{w.project_id}</a>
                </td>
                <td>
                  <Time iso={w.created_at} />
                </td>
                <td>
                  <Duration ms={w.duration_ms} />
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
