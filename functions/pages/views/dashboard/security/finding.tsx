import type { Finding } from '../../../../core/security/finding';
import { Alert, Button, Card, PostForm } from '../../../components';
import { StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export const FindingPage = (props: { shell: Shell; finding: Finding; notice?: string }) => {
  const { shell, finding } = props;
  const remediation = finding.remediation;
  return (
    <Layout title={finding.title} shell={shell}>
      <p>
        <a href="/dashboard/security">All findings</a>
      </p>
      <h1>{finding.title}</h1>
      <p>
        <StatusBadge status={finding.severity} /> <StatusBadge status={finding.status} /> <code>{finding.id}</code> · {finding.type} ·{' '}
        <code>{finding.rule_id}</code>
      </p>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <h2>Where</h2>
        <p>
          <code className="break">
            {finding.location.path}
            {finding.location.line !== null && `:${finding.location.line}`}
          </code>{' '}
          on branch <code>{finding.branch}</code> of project{' '}
          <a href={`/dashboard/projects/${encodeURIComponent(finding.project_id)}`}>{finding.project_id}</a>
        </p>
        <p>{finding.description}</p>
        <h2>Excerpt</h2>
        {finding.excerpt ? (
          <pre className="excerpt" aria-label="Masked excerpt">
            {finding.excerpt}
          </pre>
        ) : (
          <p className="muted">No excerpt.</p>
        )}
        <p className="small muted">
          First seen <Time iso={finding.first_seen_at} />, last seen <Time iso={finding.last_seen_at} /> in scan{' '}
          <a href={`/dashboard/security/scans/${encodeURIComponent(finding.scan_id)}`}>{finding.scan_id}</a>.
        </p>
      </Card>
      <Card>
        <h2>Remediation</h2>
        {remediation ? (
          <>
            <p>
              <StatusBadge status={remediation.status} /> {remediation.method && `by ${remediation.method}`}, requested{' '}
              <Time iso={remediation.requested_at} />
              {remediation.completed_at && (
                <>
                  , finished <Time iso={remediation.completed_at} />
                </>
              )}
            </p>
            {remediation.error && <Alert kind="error">{remediation.error}</Alert>}
            {remediation.patch && (
              <p>
                Verified patch: <code className="break">{remediation.patch.location}</code> ({remediation.patch.size} bytes, sha256{' '}
                <code>{remediation.patch.sha256.slice(0, 12)}</code>)
              </p>
            )}
            {remediation.pushed_branch && (
              <p>
                Pushed to branch <code>{remediation.pushed_branch}</code>.
              </p>
            )}
          </>
        ) : (
          <p className="muted">Not remediated yet.</p>
        )}
        {finding.status === 'open' && remediation?.status !== 'in_progress' && (
          <PostForm
            action={`/dashboard/security/findings/${encodeURIComponent(finding.id)}/remediate`}
            csrfToken={shell.viewer.csrfToken}
            className="inline-form"
          >
            <Button>Remediate</Button>
          </PostForm>
        )}
      </Card>
    </Layout>
  );
};
