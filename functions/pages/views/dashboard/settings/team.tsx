import type { MemberView } from '../../../../core/users/manage-users';
import { Alert, Button, Card, ErrorSummary, PostForm, TextField } from '../../../components';
import { ConfirmForm, SelectField, StatusBadge, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export const TeamPage = (props: { shell: Shell; members: MemberView[]; selfId: string; notice?: string; errors?: string[] }) => {
  const { shell } = props;
  const admin = shell.role === 'admin';
  return (
    <Layout title="Team" shell={shell}>
      <h1>Team</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <table className="table">
          <caption className="visually-hidden">Members of the account</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Two-factor</th>
              <th scope="col">Member since</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  {m.email} {m.id === props.selfId && <span className="badge">you</span>}
                  {!m.password_set && <span className="badge badge--warn">invited</span>}
                </th>
                <td>{m.role}</td>
                <td>
                  <StatusBadge status={m.two_factor ? 'enabled' : 'inactive'} label={m.two_factor ? 'on' : 'off'} />
                </td>
                <td>
                  <Time iso={m.member_since} />
                </td>
                <td>
                  {admin && m.id !== props.selfId && (
                    <ConfirmForm
                      action={`/dashboard/team/${encodeURIComponent(m.id)}/remove`}
                      csrfToken={shell.viewer.csrfToken}
                      confirm={`Remove ${m.email} from the account? Their sessions and the applications they authorized stop acting for it.`}
                      label={`Remove ${m.email}`}
                    >
                      <Button variant="danger">Remove</Button>
                    </ConfirmForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {admin && (
        <Card>
          <h2>Invite someone</h2>
          <p className="muted">They get an e-mail with a sign-in link (a one-time link to choose a password, valid 24 hours).</p>
          <ErrorSummary messages={props.errors ?? []} />
          <PostForm action="/dashboard/team" csrfToken={shell.viewer.csrfToken} label="Invite someone">
            <TextField label="Email" name="email" type="email" autoComplete="off" required />
            <SelectField
              label="Role"
              name="role"
              value="viewer"
              options={[
                { value: 'viewer', label: 'Viewer: reads; can create read-only keys' },
                { value: 'admin', label: 'Admin: everything' },
              ]}
            />
            <div className="actions">
              <Button>Invite</Button>
            </div>
          </PostForm>
        </Card>
      )}
    </Layout>
  );
};
