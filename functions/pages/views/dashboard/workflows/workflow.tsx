import { stageNames } from '../../../../core/workflows/stage-data';
import { isFinished, type LogEntry, logLevels, type Workflow } from '../../../../core/workflows/workflow';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { ConfirmForm } from '../../../parts/confirm-form';
import { ChoiceFilter, emptyList, FilterForm } from '../../../parts/list-filters';
import { Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { Duration, Time } from '../../../parts/time';

export interface WorkflowPageProps {
  shell: Shell;
  workflow: Workflow;
  logs: LogEntry[];
  logPage: number;
  logTotalPages: number;
  logTotal: number;
  filters: { stage?: string; level?: string };
  /** What is wrong with each refused log filter (400): shown beside it, and no line listed. */
  filterErrors?: Record<string, string>;
  hrefOf(page: number): string;
  notice?: string;
}

/**
 * The stages with their status and timing. While the workflow runs the part is marked live: the
 * script fetches the page again and swaps it in, so the stages move without a reload.
 */
const Stages = ({ workflow }: { workflow: Workflow }) => {
  const live = !isFinished(workflow.status);
  return (
    <section id="workflow-stages" data-live={live ? 'stages' : undefined} aria-labelledby="stages-heading">
      <h2 id="stages-heading">Stages</h2>
      <p role="status" aria-live="polite">
        Workflow <StatusBadge status={workflow.status} />
        {live ? ' · updating live' : ''}
        {workflow.duration_ms !== null && (
          <>
            {' '}
            · took <Duration ms={workflow.duration_ms} />
          </>
        )}
      </p>
      <ol className="stages">
        {stageNames.map((stage) => {
          const timing = workflow.stage_timings[stage];
          return (
            <li key={stage} className="stage" data-stage={stage}>
              <div className="stage__name">{stage}</div>
              <StatusBadge status={workflow.stage_statuses[stage]} />
              <div className="small">
                <Duration ms={timing.duration_ms} />
                {timing.runs > 1 && ` · ran ${timing.runs} times`}
              </div>
              <div className="small muted">
                <Time iso={timing.started_at} empty="not started" />
              </div>
            </li>
          );
        })}
      </ol>
      {workflow.error && (
        <Alert kind="error" title={`Failed${workflow.error.stage ? ` in ${workflow.error.stage}` : ''}`}>
          <p>{workflow.error.message}</p>
        </Alert>
      )}
    </section>
  );
};

export const WorkflowPage = (props: WorkflowPageProps) => {
  const { shell, workflow } = props;
  const base = `/dashboard/workflows/${encodeURIComponent(workflow.id)}`;
  return (
    <Layout title={`Workflow ${workflow.name}`} shell={shell}>
      <p>
        <a href="/dashboard/workflows">All workflows</a>
      </p>
      <h1>{workflow.name}</h1>
      <p>
        <code>{workflow.id}</code> · project{' '}
        <a href={`/dashboard/projects/${encodeURIComponent(workflow.project_id)}`}>{workflow.project_id}</a> · created{' '}
        <Time iso={workflow.created_at} />
      </p>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <Stages workflow={workflow} />
        {!isFinished(workflow.status) && (
          <ConfirmForm
            action={`${base}/cancel`}
            csrfToken={shell.viewer.csrfToken}
            confirm="Cancel this workflow? Its running and pending stages stop."
          >
            <Button variant="danger">Cancel workflow</Button>
          </ConfirmForm>
        )}
      </Card>
      <Card>
        <h2>Prompt</h2>
        <p className="break">{workflow.prompt}</p>
        <h2>Outputs</h2>
        <ul className="plain-list">
          <li>Commit: {workflow.outputs.commit ? <code>{workflow.outputs.commit}</code> : <span className="muted">none</span>}</li>
          <li>Branch: {workflow.outputs.pushed_branch ?? workflow.outputs.branch ?? <span className="muted">none</span>}</li>
          <li>Docker image: {workflow.outputs.docker_image ?? <span className="muted">none</span>}</li>
          <li>
            Deployment:{' '}
            {workflow.outputs.deployment_id ? (
              <a href={`/dashboard/deployments/${encodeURIComponent(workflow.outputs.deployment_id)}`}>{workflow.outputs.deployment_id}</a>
            ) : (
              <span className="muted">none</span>
            )}
          </li>
          <li>
            AI usage: {workflow.ai_usage.total_tokens} tokens in {workflow.ai_usage.calls} calls
            {workflow.ai_usage.model && ` (${workflow.ai_usage.model})`}
          </li>
        </ul>
      </Card>
      <Card>
        <h2>Logs</h2>
        <FilterForm action={base} label="Filter logs" errors={props.filterErrors}>
          <ChoiceFilter label="Stage" name="stage" value={props.filters.stage} values={stageNames} error={props.filterErrors?.stage} />
          <ChoiceFilter label="Level" name="level" value={props.filters.level} values={logLevels} error={props.filterErrors?.level} />
        </FilterForm>
        <RecordTable
          className="table table--compact"
          caption="Log lines, oldest first"
          headings={['Time', 'Stage', 'Level', 'Message']}
          records={props.logs}
          empty={emptyList(props.filterErrors, 'No log lines match.')}
          row={(entry, i) => (
            <tr key={`${entry.timestamp}-${i}`}>
              <td>
                <Time iso={entry.timestamp} />
              </td>
              <td>{entry.stage ?? '—'}</td>
              <td>
                <code>{entry.level}</code>
              </td>
              <td className="break">{entry.message}</td>
            </tr>
          )}
        />
        <Pagination
          page={props.logPage}
          totalPages={props.logTotalPages}
          total={props.logTotal}
          hrefOf={props.hrefOf}
          filterErrors={props.filterErrors}
        />
      </Card>
    </Layout>
  );
};
