import type { Finding } from '../../../../core/security/finding';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { PostForm } from '../../../parts/post-form';
import { StatusBadge } from '../../../parts/status-badge';
import { Time } from '../../../parts/time';
import { Excerpt } from '../../../parts/excerpt';

/** What the page shows of a patch: its text up to a cap, or why it cannot show it. */
export type PatchView = { text: string; shownBytes: number; totalBytes: number } | { unavailable: string };

/** One line of a unified diff, marked as added or removed (the +/- stays, so colour is not the only sign). */
const DiffLine = ({ line }: { line: string }) => {
  const kind =
    line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ')
      ? 'file'
      : line.startsWith('@@')
        ? 'hunk'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : 'context';
  return <span className={`patch__line patch__line--${kind}`}>{`${line}\n`}</span>;
};

const PatchText = ({ patch, rawHref }: { patch: PatchView; rawHref: string }) => {
  if ('unavailable' in patch) return <p className="muted">{patch.unavailable}</p>;
  const cut = patch.shownBytes < patch.totalBytes;
  return (
    <>
      {/* Focusable: a long patch scrolls, and a keyboard must reach it. */}
      <pre id="remediation-patch" className="patch" aria-label="Patch" tabIndex={0}>
        {patch.text.split('\n').map((line, index, lines) => (index === lines.length - 1 && line === '' ? null : <DiffLine line={line} />))}
      </pre>
      <p className="small muted">
        {cut ? `Showing the first ${patch.shownBytes} of ${patch.totalBytes} bytes. ` : ''}
        <a href={rawHref}>{cut ? 'The whole patch' : 'Raw patch'}</a> (text/x-diff, for <code>git apply</code>).
      </p>
    </>
  );
};

export const FindingPage = (props: { shell: Shell; finding: Finding; patch?: PatchView; notice?: string }) => {
  const { shell, finding } = props;
  const remediation = finding.remediation;
  const base = `/dashboard/security/findings/${encodeURIComponent(finding.id)}`;
  // While the remediation runs the card is refreshed in place (the dashboard script), until it ends.
  const live = finding.status === 'remediating';
  return (
    <Layout title={finding.title} shell={shell}>
      <p>
        <a href="/dashboard/security">All findings</a>
      </p>
      <h1>{finding.title}</h1>
      <p id="finding-status" data-live={live ? 'status' : undefined}>
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
        {finding.excerpt ? <Excerpt label="Masked excerpt">{finding.excerpt}</Excerpt> : <p className="muted">No excerpt.</p>}
        <p className="small muted">
          First seen <Time iso={finding.first_seen_at} />, last seen <Time iso={finding.last_seen_at} /> in scan{' '}
          <a href={`/dashboard/security/scans/${encodeURIComponent(finding.scan_id)}`}>{finding.scan_id}</a>.
        </p>
      </Card>
      <section id="finding-remediation" className="card" data-live={live ? 'remediation' : undefined} aria-labelledby="remediation-heading">
        <h2 id="remediation-heading">Remediation</h2>
        <p role="status" aria-live="polite" className="small muted">
          {live ? 'Remediating: the patch is being verified by scanning again · updating live' : ''}
        </p>
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
              <>
                <h3>Verified patch</h3>
                <p className="small muted">
                  {remediation.patch.size} bytes, sha256 <code>{remediation.patch.sha256.slice(0, 12)}</code>; secrets in it are shown as{' '}
                  <code>***</code>.
                </p>
                {props.patch && <PatchText patch={props.patch} rawHref={`${base}/patch`} />}
              </>
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
          <PostForm action={`${base}/remediate`} csrfToken={shell.viewer.csrfToken} className="inline-form">
            <Button>Remediate</Button>
          </PostForm>
        )}
      </section>
    </Layout>
  );
};
