import type { Scan } from '../../../../core/security/scan';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Card } from '../../../parts/card';
import { StatusBadge } from '../../../parts/status-badge';
import { Duration, Time } from '../../../parts/time';

export const ScanPage = ({ shell, scan }: { shell: Shell; scan: Scan }) => (
  <Layout title={`Scan ${scan.id}`} shell={shell}>
    <p>
      <a href="/dashboard/security">Security</a>
    </p>
    <h1>Scan {scan.id}</h1>
    <section id="scan-status" data-live={scan.status === 'queued' || scan.status === 'running' ? 'scan' : undefined}>
      <p role="status">
        <StatusBadge status={scan.status} /> project{' '}
        <a href={`/dashboard/projects/${encodeURIComponent(scan.project_id)}`}>{scan.project_id}</a>, branch{' '}
        <code>{scan.branch_scanned ?? scan.branch ?? 'default'}</code>
        {scan.commit && (
          <>
            {' '}
            at <code>{scan.commit.slice(0, 12)}</code>
          </>
        )}
        , created <Time iso={scan.created_at} />, took <Duration ms={scan.duration_ms} />
      </p>
      {scan.summary && (
        <p>
          <a href={`/dashboard/security?project_id=${encodeURIComponent(scan.project_id)}`}>Findings of the project</a>
        </p>
      )}
      {scan.errors.length > 0 && (
        <Alert kind="error" title="Problems">
          <ul>
            {scan.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </Alert>
      )}
      {Object.entries(scan.coverage).map(([type, coverage]) => (
        <Card key={type}>
          <h2>Coverage: {type}</h2>
          <p>
            {coverage.files_scanned} files scanned; covered: {coverage.covered.join(', ') || 'nothing'}.
          </p>
          {coverage.not_covered.length > 0 && (
            <>
              <h3>Not covered</h3>
              <ul>
                {coverage.not_covered.map((n) => (
                  <li key={n.kind}>
                    {n.kind}: {n.files} files ({n.reason})
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>
      ))}
    </section>
  </Layout>
);
