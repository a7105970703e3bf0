import type { AuditRecord } from '../../../../core/audit/audit';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Card } from '../../../parts/card';
import { RecordTable } from '../../../parts/record-table';
import { Time } from '../../../parts/time';

const detailText = (details: Record<string, unknown>): string =>
  Object.entries(details)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('; ');

export const AuditLogPage = (props: { shell: Shell; records: AuditRecord[]; emails: Map<string, string> }) => (
  <Layout title="Audit log" shell={props.shell}>
    <h1>Audit log</h1>
    <p className="muted">Sign-ins, key and application changes, grants and team changes of this account, newest first.</p>
    <Card>
      <RecordTable
        className="table table--compact"
        caption="Audit records, newest first"
        headings={['When', 'Action', 'By', 'Target', 'Details', 'From']}
        records={props.records}
        empty="Nothing recorded yet."
        row={(r) => (
          <tr key={r.id}>
            <td>
              <Time iso={r.created_at} />
            </td>
            <td>
              <code>{r.action}</code>
            </td>
            <td>
              {r.actor.type === 'user' && r.actor.id
                ? (props.emails.get(r.actor.id) ?? r.actor.id)
                : `${r.actor.type}${r.actor.id ? ` ${r.actor.id}` : ''}`}
            </td>
            <td>{r.target_id ? <code>{r.target_id}</code> : '—'}</td>
            <td className="break small">{detailText(r.details)}</td>
            <td className="small">{r.ip ?? '—'}</td>
          </tr>
        )}
      />
    </Card>
  </Layout>
);
