import type { TestRun, TestSuite } from '../../../../core/testing/test-records';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Card } from '../../../parts/card';
import { FilterForm, ProjectIdFilter } from '../../../parts/list-filters';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Time } from '../../../parts/time';
import { foundNoTests } from './no-tests-found';

/** A run's totals in words; cases that could not run (errored: a failed fixture, a file that did not load) are said when there are any. */
export const totalsText = (run: TestRun): string => {
  if (!run.results) return '—';
  if (foundNoTests(run)) return 'No tests found';
  const { passed, failed, skipped, errored } = run.results.totals;
  return `${passed} passed, ${failed} failed, ${skipped} skipped${errored > 0 ? `, ${errored} errored` : ''}`;
};

/** Whether a run has a case that failed or could not run: its row stands out. */
const hasFailures = (run: TestRun): boolean => Boolean(run.results && run.results.totals.failed + run.results.totals.errored > 0);

export const TestsPage = (props: { shell: Shell; suites: TestSuite[]; runs: TestRun[]; projectId?: string }) => (
  <Layout title="Tests" shell={props.shell}>
    <h1>Tests</h1>
    <FilterForm action="/dashboard/tests" label="Filter tests">
      <ProjectIdFilter value={props.projectId} />
    </FilterForm>
    <Card>
      <h2>Runs</h2>
      <RecordTable
        caption="Latest test runs"
        headings={['Run', 'Status', 'Totals', 'Project', 'Created']}
        records={props.runs}
        empty="No test runs yet. Start one with POST /v1/tests/run."
        row={(run) => (
          <tr key={run.id} className={hasFailures(run) ? 'row--failed' : undefined}>
            <th scope="row">
              <a href={`/dashboard/tests/${encodeURIComponent(run.id)}`}>{run.id}</a>
            </th>
            <td>
              <StatusBadge status={run.status} />
            </td>
            <td>
              {totalsText(run)}
              {foundNoTests(run) && <span className="small muted">: check its framework and where its tests are</span>}
            </td>
            <td>
              <a href={`/dashboard/projects/${encodeURIComponent(run.project_id)}`}>{run.project_id}</a>
            </td>
            <td>
              <Time iso={run.created_at} />
            </td>
          </tr>
        )}
      />
    </Card>
    <Card>
      <h2>Generated suites</h2>
      <RecordTable
        caption="Latest generated suites"
        headings={['Suite', 'Status', 'Framework', 'Files', 'Created']}
        records={props.suites}
        empty="No generated suites yet. Ask for one with POST /v1/tests/generate."
        row={(suite) => (
          <tr key={suite.id}>
            <th scope="row">
              <a href={`/dashboard/tests/${encodeURIComponent(suite.id)}`}>{suite.id}</a>
            </th>
            <td>
              <StatusBadge status={suite.status} />
            </td>
            <td>{suite.framework ?? '—'}</td>
            <td>{suite.files.length}</td>
            <td>
              <Time iso={suite.created_at} />
            </td>
          </tr>
        )}
      />
    </Card>
  </Layout>
);
