import type { AuthorizedApplication } from '../../../../core/oauth/authorized-applications';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { CodeList } from '../../../parts/code-list';
import { ConfirmForm } from '../../../parts/confirm-form';
import { RecordTable } from '../../../parts/record-table';
import { Time } from '../../../parts/time';

export const AuthorizedApplicationsPage = (props: {
  shell: Shell;
  applications: AuthorizedApplication[];
  emails: Map<string, string>;
  selfId: string;
  notice?: string;
}) => (
  <Layout title="Authorized applications" shell={props.shell}>
    <h1>Authorized applications</h1>
    <p className="muted">Applications this account let act for it. Revoking one takes effect on its next request.</p>
    {props.notice && <Alert kind="success">{props.notice}</Alert>}
    <Card>
      <RecordTable
        caption="Applications authorized by this account"
        headings={['Application', 'Scopes', 'Authorized by', 'Authorized', 'Last used', 'Actions']}
        records={props.applications}
        empty="No application is authorized."
        row={(a) => (
          <tr key={a.grant_id}>
            <th scope="row">
              {a.application}
              <div className="small muted">
                <code>{a.client_id}</code>
              </div>
            </th>
            <td>
              <CodeList values={a.scopes} />
            </td>
            <td>{props.emails.get(a.user_id) ?? a.user_id}</td>
            <td>
              <Time iso={a.created_at} />
              {a.grants > 1 && <div className="muted small">{`and ${a.grants - 1} more time${a.grants > 2 ? 's' : ''} since`}</div>}
            </td>
            <td>
              <Time iso={a.last_used_at} empty="Never" />
            </td>
            <td>
              {(props.shell.role === 'admin' || a.user_id === props.selfId) && (
                <ConfirmForm
                  action={`/dashboard/developers/authorized-applications/${encodeURIComponent(a.grant_id)}/revoke`}
                  csrfToken={props.shell.viewer.csrfToken}
                  confirm={`Revoke ${a.application}? Its tokens stop working on its next request.`}
                  label={`Revoke ${a.application}`}
                >
                  <Button variant="danger">Revoke</Button>
                </ConfirmForm>
              )}
            </td>
          </tr>
        )}
      />
    </Card>
  </Layout>
);
