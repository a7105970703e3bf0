import type { ComponentChildren } from 'preact';
import type { DeploymentView } from '../../../../core/deployments/deployment';
import type { Project } from '../../../../core/projects/project';
import type { Review } from '../../../../core/reviews/review';
import type { Finding } from '../../../../core/security/finding';
import type { Scan } from '../../../../core/security/scan';
import type { TestRun } from '../../../../core/testing/test-records';
import type { Workflow } from '../../../../core/workflows/workflow';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { ConfirmForm } from '../../../parts/confirm-form';
import { Empty } from '../../../parts/empty';
import { FormCard } from '../../../parts/form-card';
import { StatusBadge } from '../../../parts/status-badge';
import { OriginalValues } from '../../../parts/original-values';
import { Time } from '../../../parts/time';
import { totalsText } from '../tests/tests';
import { type ProjectForm, ProjectFields, projectFormOf } from './projects';

export interface ProjectPageProps {
  shell: Shell;
  project: Project;
  workflows: Workflow[];
  scans: Scan[];
  findings: Finding[];
  deployments: DeploymentView[];
  reviews: Review[];
  testRuns: TestRun[];
  notice?: string;
  errors?: string[];
  fieldErrors?: Record<string, string>;
  form?: ProjectForm;
  /** What the edit form was first filled from (sent back by it), when it is shown again; else the project's values. */
  original?: object;
  /** The `ETag` of the project the edit form's fields were filled from: the save is made only while it is current. */
  etag: string;
}

/** What an empty section says to do next: the API call that starts one, for this project. */
const StartWith = (props: { what: string; call: string; also?: string }) => (
  <>
    No {props.what} yet. Start one with <code>{props.call}</code> and this project&rsquo;s id{props.also ?? ''}.
  </>
);

/** The project's latest records of one kind, one a line, with a link to all of them where there is a list. */
const Section = <T,>(props: {
  title: string;
  href?: string;
  empty: ComponentChildren;
  items: readonly T[];
  item: (record: T) => ComponentChildren;
}) => (
  <Card>
    <div className="card-head">
      <h2>{props.title}</h2>
      {props.href && <a href={props.href}>All {props.title.toLowerCase()} of this project</a>}
    </div>
    {props.items.length === 0 ? <Empty>{props.empty}</Empty> : <ul className="plain-list">{props.items.map(props.item)}</ul>}
  </Card>
);

export const ProjectPage = (props: ProjectPageProps) => {
  const { shell, project } = props;
  const base = `/dashboard/projects/${encodeURIComponent(project.id)}`;
  const stored = projectFormOf(project);
  const filter = `project_id=${encodeURIComponent(project.id)}`;
  return (
    <Layout title={project.name} shell={shell}>
      <p>
        <a href="/dashboard/projects">All projects</a>
      </p>
      <h1>{project.name}</h1>
      <p>
        <code>{project.id}</code> · <code className="break">{project.repository}</code> · created <Time iso={project.created_at} />
      </p>
      {project.description && <p>{project.description}</p>}
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Section
        title="Workflows"
        href={`/dashboard/workflows?${filter}`}
        empty={<StartWith what="workflows" call="POST /v1/workflows" />}
        items={props.workflows}
        item={(w) => (
          <li key={w.id}>
            <a href={`/dashboard/workflows/${encodeURIComponent(w.id)}`}>{w.name}</a> <StatusBadge status={w.status} />{' '}
            <Time iso={w.created_at} />
          </li>
        )}
      />
      <Section
        title="Scans"
        href={`/dashboard/security?${filter}`}
        empty={<StartWith what="scans" call="POST /v1/security/scans" />}
        items={props.scans}
        item={(s) => (
          <li key={s.id}>
            <a href={`/dashboard/security/scans/${encodeURIComponent(s.id)}`}>{s.id}</a> <StatusBadge status={s.status} />{' '}
            {s.scan_types.join(', ')} <Time iso={s.created_at} />
          </li>
        )}
      />
      <Section
        title="Findings"
        href={`/dashboard/security?${filter}`}
        empty="No open findings."
        items={props.findings}
        item={(f) => (
          <li key={f.id}>
            <StatusBadge status={f.severity} /> <a href={`/dashboard/security/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>{' '}
            <StatusBadge status={f.status} />
          </li>
        )}
      />
      <Section
        title="Deployments"
        href={`/dashboard/deployments?${filter}`}
        empty={<StartWith what="deployments" call="POST /v1/deployments" />}
        items={props.deployments}
        item={(d) => (
          <li key={d.id}>
            <a href={`/dashboard/deployments/${encodeURIComponent(d.id)}`}>{d.id}</a> {d.environment} <StatusBadge status={d.status} />{' '}
            <Time iso={d.created_at} />
          </li>
        )}
      />
      <Section
        title="Test runs"
        href={`/dashboard/tests?${filter}`}
        empty={<StartWith what="test runs" call="POST /v1/tests/run" />}
        items={props.testRuns}
        item={(run) => (
          <li key={run.id}>
            <a href={`/dashboard/tests/${encodeURIComponent(run.id)}`}>{run.id}</a> <StatusBadge status={run.status} /> {totalsText(run)}{' '}
            <Time iso={run.created_at} />
          </li>
        )}
      />
      <Section
        title="Code reviews"
        empty={<StartWith what="code reviews" call="POST /v1/reviews" also=", or run a workflow: it reviews its own change" />}
        items={props.reviews}
        item={(r) => (
          <li key={r.id}>
            <code>{r.id}</code> {r.head ? <code className="break">{r.head}</code> : 'workflow change'}
            {r.base_ref && (
              <>
                {' '}
                into <code className="break">{r.base_ref}</code>
              </>
            )}{' '}
            <StatusBadge status={r.status} />
            {r.verdict && (
              <>
                {' '}
                <StatusBadge status={r.verdict} />
              </>
            )}
            {r.counts && ` ${r.counts.comments} ${r.counts.comments === 1 ? 'comment' : 'comments'}`} <Time iso={r.created_at} />
          </li>
        )}
      />
      {shell.role === 'admin' && (
        <>
          <FormCard
            title="Edit"
            label="Edit the project"
            action={base}
            csrfToken={shell.viewer.csrfToken}
            errors={props.errors}
            submit="Save changes"
          >
            <ProjectFields form={props.form ?? stored} errors={props.fieldErrors} />
            <input type="hidden" name="etag" value={props.etag} />
            <OriginalValues values={props.original ?? stored} />
          </FormCard>
          <Card>
            <h2>Delete</h2>
            <p className="muted">Refused while a workflow or deployment of the project is in progress.</p>
            <ConfirmForm action={`${base}/delete`} csrfToken={shell.viewer.csrfToken} confirm={`Delete the project ${project.name}?`}>
              <Button variant="danger">Delete</Button>
            </ConfirmForm>
          </Card>
        </>
      )}
    </Layout>
  );
};
