import { type Finding, findingStatuses } from '../../../../core/security/finding';
import type { Scan } from '../../../../core/security/scan';
import { scanTypes, severities } from '../../../../core/security/scanner';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Card } from '../../../parts/card';
import { ChoiceFilter, emptyList, FilterForm, ProjectIdFilter } from '../../../parts/list-filters';
import { type Paged, Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Time } from '../../../parts/time';

export interface SecurityPageProps extends Paged {
  shell: Shell;
  scans: Scan[];
  findings: Finding[];
  filters: { severity?: string; status?: string; type?: string; project_id?: string };
  /** What is wrong with each refused filter (400): shown beside it, and nothing listed. */
  filterErrors?: Record<string, string>;
}

export const coverageText = (scan: Scan): string =>
  Object.entries(scan.coverage)
    .map(([type, c]) => `${type}: ${c.files_scanned} files${c.not_covered.length > 0 ? `, ${c.not_covered.length} kinds not covered` : ''}`)
    .join('; ') || 'not yet';

export const SecurityPage = (props: SecurityPageProps) => (
  <Layout title="Security" shell={props.shell}>
    <h1>Security</h1>
    <Card>
      <h2>Findings</h2>
      <FilterForm action="/dashboard/security" label="Filter findings" errors={props.filterErrors}>
        <ChoiceFilter
          label="Severity"
          name="severity"
          value={props.filters.severity}
          values={severities}
          error={props.filterErrors?.severity}
        />
        <ChoiceFilter
          label="Status"
          name="status"
          value={props.filters.status}
          values={findingStatuses}
          error={props.filterErrors?.status}
        />
        <ChoiceFilter label="Type" name="type" value={props.filters.type} values={scanTypes} error={props.filterErrors?.type} />
        <ProjectIdFilter value={props.filters.project_id} />
      </FilterForm>
      <RecordTable
        caption="Findings, most severe first"
        headings={['Finding', 'Severity', 'Status', 'Type', 'Where', 'Last seen']}
        records={props.findings}
        empty={emptyList(props.filterErrors, 'No findings match. Scans report them: start one with POST /v1/security/scans.')}
        row={(f) => (
          <tr key={f.id}>
            <th scope="row">
              <a href={`/dashboard/security/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>
            </th>
            <td>
              <StatusBadge status={f.severity} />
            </td>
            <td>
              <StatusBadge status={f.status} />
            </td>
            <td>{f.type}</td>
            <td className="break">
              <code>
                {f.location.path}
                {f.location.line !== null && `:${f.location.line}`}
              </code>
            </td>
            <td>
              <Time iso={f.last_seen_at} />
            </td>
          </tr>
        )}
      />
      <Pagination {...props} />
    </Card>
    <Card>
      <h2>Latest scans</h2>
      <RecordTable
        caption="Latest scans with their coverage"
        headings={['Scan', 'Status', 'Types', 'Coverage', 'Created']}
        records={props.scans}
        empty="No scans yet. Start one with POST /v1/security/scans."
        row={(scan) => (
          <tr key={scan.id}>
            <th scope="row">
              <a href={`/dashboard/security/scans/${encodeURIComponent(scan.id)}`}>{scan.id}</a>
            </th>
            <td>
              <StatusBadge status={scan.status} />
            </td>
            <td>{scan.scan_types.join(', ')}</td>
            <td>{coverageText(scan)}</td>
            <td>
              <Time iso={scan.created_at} />
            </td>
          </tr>
        )}
      />
    </Card>
  </Layout>
);
