import { type Workflow, workflowStatuses } from '../../../../core/workflows/workflow';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Card } from '../../../parts/card';
import { ChoiceFilter, emptyList, FilterForm, ProjectIdFilter } from '../../../parts/list-filters';
import { type Paged, Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Duration, Time } from '../../../parts/time';

export interface WorkflowsPageProps extends Paged {
  shell: Shell;
  workflows: Workflow[];
  filters: { status?: string; project_id?: string };
  /** What is wrong with each refused filter (400): shown beside it, and nothing listed. */
  filterErrors?: Record<string, string>;
}

export const WorkflowsPage = (props: WorkflowsPageProps) => (
  <Layout title="Workflows" shell={props.shell}>
    <h1>Workflows</h1>
    <Card>
      <FilterForm action="/dashboard/workflows" label="Filter workflows" errors={props.filterErrors}>
        <ChoiceFilter
          label="Status"
          name="status"
          value={props.filters.status}
          values={workflowStatuses}
          error={props.filterErrors?.status}
        />
        <ProjectIdFilter value={props.filters.project_id} />
      </FilterForm>
      <RecordTable
        caption="Workflows, newest first"
        headings={['Name', 'Status', 'Project', 'Created', 'Duration']}
        records={props.workflows}
        empty={emptyList(props.filterErrors, 'No workflows match. Start one with POST /v1/workflows.')}
        row={(w) => (
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
        )}
      />
      <Pagination {...props} />
    </Card>
  </Layout>
);
