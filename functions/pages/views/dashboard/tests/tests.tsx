import type { TestRun, TestSuite } from '../../../../core/testing/test-records';
import { Button, Card } from '../../../components';
import { Empty, ProjectIdFilter, StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export const totalsText = (run: TestRun): string =>
  run.results ? `${run.results.totals.passed} passed, ${run.results.totals.failed} failed, ${run.results.totals.skipped} skipped` : '—';

export const TestsPage = (props: { shell: Shell; suites: TestSuite[]; runs: TestRun[]; projectId?: string }) => (
  <Layout title="Tests" shell={props.shell}>
    <h1>Tests</h1>
    <form method="get" action="/dashboard/tests" className="filters-form" aria-label="Filter tests">
      <ProjectIdFilter value={props.projectId} />
      <Button variant="secondary">Filter</Button>
    </form>
    <Card>
      <h2>Runs</h2>
      {props.runs.length === 0 ? (
        <Empty>No test runs yet. Start one with POST /v1/tests/run.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Latest test runs</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Totals</th>
              <th scope="col">Project</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.runs.map((run) => (
              <tr key={run.id} className={run.results && run.results.totals.failed > 0 ? 'row--failed' : undefined}>
                <th scope="row">
                  <a href={`/dashboard/tests/${encodeURIComponent(run.id)}`}>{run.id}</a>
                </th>
                <td>
                  <StatusBadge status={run.status} />
                </td>
                <td>{totalsText(run)}</td>
                <td>
                  <a href={`/dashboard/projects/${encodeURIComponent(run.project_id)}`}>{run.project_id}</a>
                </td>
                <td>
                  <Time iso={run.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
    <Card>
      <h2>Generated suites</h2>
      {props.suites.length === 0 ? (
        <Empty>No generated suites yet. Ask for one with POST /v1/tests/generate.</Empty>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Latest generated suites</caption>
          <thead>
            <tr>
              <th scope="col">Suite</th>
              <th scope="col">Status</th>
              <th scope="col">Framework</th>
              <th scope="col">Files</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.suites.map((suite) => (
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
            ))}
          </tbody>
        </table>
      )}
    </Card>
  </Layout>
);
