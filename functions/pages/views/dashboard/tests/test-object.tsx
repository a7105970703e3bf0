import type { TestRun, TestSuite } from '../../../../core/testing/test-records';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Card } from '../../../parts/card';
import { Empty } from '../../../parts/empty';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Duration, Time } from '../../../parts/time';
import { totalsText } from './tests';
import { Excerpt } from '../../../parts/excerpt';
import { foundNoTests, NoTestsFound } from './no-tests-found';

const SuiteView = ({ suite }: { suite: TestSuite }) => (
  <>
    <p role="status">
      <StatusBadge status={suite.status} /> {suite.framework ?? 'framework not known yet'}, created <Time iso={suite.created_at} />
      {suite.latest_run_id && (
        <>
          {' '}
          · latest run <a href={`/dashboard/tests/${encodeURIComponent(suite.latest_run_id)}`}>{suite.latest_run_id}</a>
        </>
      )}
    </p>
    {suite.error && <Alert kind="error">{suite.error}</Alert>}
    {suite.summary && <p>{suite.summary}</p>}
    <Card>
      <h2>Generated files</h2>
      {suite.files.length === 0 ? (
        <Empty>No files yet.</Empty>
      ) : (
        suite.files.map((file) => (
          <details key={file.path}>
            <summary>
              <code>{file.path}</code> ({file.cases.length} cases)
            </summary>
            <Excerpt label={`Content of ${file.path}`}>{file.content}</Excerpt>
          </details>
        ))
      )}
    </Card>
  </>
);

const RunView = ({ run }: { run: TestRun }) => {
  const failing = run.results?.cases.filter((c) => c.status === 'failed' || c.status === 'errored') ?? [];
  return (
    <>
      <p role="status">
        <StatusBadge status={run.status} /> {totalsText(run)}
        {run.results && (
          <>
            {' '}
            in <Duration ms={run.results.duration_ms} />
          </>
        )}
        , created <Time iso={run.created_at} />
        {run.suite_id && (
          <>
            {' '}
            · suite <a href={`/dashboard/tests/${encodeURIComponent(run.suite_id)}`}>{run.suite_id}</a>
          </>
        )}
      </p>
      {run.error && <Alert kind="error">{run.error}</Alert>}
      {foundNoTests(run) && <NoTestsFound run={run} />}
      <Card>
        <h2>Failing cases</h2>
        <RecordTable
          className="table table--compact"
          caption="Failing cases"
          headings={['Case', 'File', 'Message']}
          records={failing}
          empty={!run.results ? 'No results yet.' : foundNoTests(run) ? 'None: no test case ran.' : 'None.'}
          row={(c, i) => (
            <tr key={`${c.name}-${i}`}>
              <th scope="row">{c.name}</th>
              <td>{c.file ? <code>{c.file}</code> : '—'}</td>
              <td>{c.failure_message ? <Excerpt label={`Failure of ${c.name}`}>{c.failure_message}</Excerpt> : '—'}</td>
            </tr>
          )}
        />
        {run.results?.log_excerpt && (
          <details>
            <summary>Log excerpt</summary>
            <Excerpt label="Log excerpt">{run.results.log_excerpt}</Excerpt>
          </details>
        )}
      </Card>
    </>
  );
};

export const TestObjectPage = ({ shell, object }: { shell: Shell; object: TestSuite | TestRun }) => (
  <Layout title={object.object === 'test_suite' ? `Suite ${object.id}` : `Run ${object.id}`} shell={shell}>
    <p>
      <a href="/dashboard/tests">All tests</a>
    </p>
    <h1>{object.object === 'test_suite' ? `Suite ${object.id}` : `Run ${object.id}`}</h1>
    <section id="test-object" data-live={object.status === 'queued' || object.status === 'running' ? 'test' : undefined}>
      {object.object === 'test_suite' ? <SuiteView suite={object} /> : <RunView run={object} />}
    </section>
  </Layout>
);
