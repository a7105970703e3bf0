import { type Finding, findingStatuses } from '../../../../core/security/finding';
import type { Scan } from '../../../../core/security/scan';
import { scanTypes, severities } from '../../../../core/security/scanner';
import { Button, Card } from '../../../components';
import { Empty, Pagination, ProjectIdFilter, SelectField, StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export interface SecurityPageProps {
  shell: Shell;
  scans: Scan[];
  findings: Finding[];
  page: number;
  totalPages: number;
  total: number;
  filters: { severity?: string; status?: string; type?: string; project_id?: string };
  hrefOf(page: number): string;
}

const any = { value: '', label: 'Any' };

export const coverageText = (scan: Scan): string =>
  Object.entries(scan.coverage)
    .map(([type, c]) => `${type}: ${c.files_scanned} files${c.not_covered.length > 0 ? `, ${c.not_covered.length} kinds not covered` : ''}`)
    .join('; ') || 'not yet';

export const SecurityPage = (props: SecurityPageProps) => (
  <Layout title="Security" shell={props.shell}>
    <h1>Security</h1>
    <Card>
      <h2>Findings</h2>
      <form method="get" action="/dashboard/security" className="filters-form" aria-label="Filter findings">
        <SelectField
          label="Severity"
          name="severity"
          value={props.filters.severity ?? ''}
          options={[any, ...severities.map((s) => ({ value: s, label: s }))]}
        />
        <SelectField
          label="Status"
          name="status"
          value={props.filters.status ?? ''}
          options={[any, ...findingStatuses.map((s) => ({ value: s, label: s }))]}
        />
        <SelectField
          label="Type"
          name="type"
          value={props.filters.type ?? ''}
          options={[any, ...scanTypes.map((s) => ({ value: s, label: s }))]}
        />
        <ProjectIdFilter value={props.filters.project_id} />
        <Button variant="secondary">Filter</Button>
      </form>
      {props.findings.length === 0 ? (
        <Empty>No findings match.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Findings, most severe first</caption>
          <thead>
            <tr>
              <th scope="col">Finding</th>
              <th scope="col">Severity</th>
              <th scope="col">Status</th>
              <th scope="col">Type</th>
              <th scope="col">Where</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {props.findings.map((f) => (
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
            ))}
          </tbody>
        </table>
      )}
      <Pagination page={props.page} totalPages={props.totalPages} total={props.total} hrefOf={props.hrefOf} />
    </Card>
    <Card>
      <h2>Latest scans</h2>
      {props.scans.length === 0 ? (
        <Empty>No scans yet. Start one with POST /v1/security/scans.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Latest scans with their coverage</caption>
          <thead>
            <tr>
              <th scope="col">Scan</th>
              <th scope="col">Status</th>
              <th scope="col">Types</th>
              <th scope="col">Coverage</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.scans.map((scan) => (
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
            ))}
          </tbody>
        </table>
      )}
    </Card>
  </Layout>
);
