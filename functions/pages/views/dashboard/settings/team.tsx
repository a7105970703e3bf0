import { type KeysCreated, noKeysCreated } from '../../../../core/credentials/dashboard-keys';
import type { PendingInvitationView } from '../../../../core/users/invitations';
import type { MemberView } from '../../../../core/users/manage-users';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Button } from '../../../parts/button';
import { Card } from '../../../parts/card';
import { SelectField } from '../../../parts/choice-fields';
import { ConfirmForm } from '../../../parts/confirm-form';
import { FormCard } from '../../../parts/form-card';
import { RecordTable } from '../../../parts/record-table';
import { StatusBadge } from '../../../parts/status-badge';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';

/** What removing a member does, asked in the dialog and on the page that confirms without a script. */
export const removalQuestion = (email: string, created: KeysCreated): string =>
  `Remove ${email} from the account? Their sessions stop, and the applications they authorized are revoked. ` +
  `API keys they created: ${created.apiKeys} (they stay the account's and keep working). ` +
  `Their personal access tokens are revoked: ${created.personalAccessTokens}. Added back later, they start afresh.`;

/** What cancelling an invitation does, asked in the dialog and on the page that confirms without a script. */
export const cancellationQuestion = (email: string): string =>
  `Cancel the invitation of ${email}? The link in their e-mail stops working; you can invite them again.`;

/** Invitations of people who have a user already, waiting for them to accept or decline. */
const PendingInvitations = ({ shell, invitations }: { shell: Shell; invitations: PendingInvitationView[] }) => (
  <Card>
    <h2>Pending invitations</h2>
    <p className="muted">
      People who already have a user join only when they accept their invitation (signed in as themselves, within 7 days).
    </p>
    <RecordTable
      caption="Invitations waiting for an answer, oldest first"
      headings={['E-mail', 'Role', 'Invited by', 'Expires', 'Actions']}
      records={invitations}
      row={(invitation) => (
        <tr key={invitation.id}>
          <th scope="row">
            {invitation.email} {invitation.expired && <span className="badge badge--warn">expired</span>}
          </th>
          <td>{invitation.role}</td>
          <td>{invitation.invited_by_email ?? '—'}</td>
          <td>
            <Time iso={invitation.expires_at} />
          </td>
          <td>
            {shell.role === 'admin' && (
              <ConfirmForm
                action={`/dashboard/team/invitations/${encodeURIComponent(invitation.id)}/cancel`}
                csrfToken={shell.viewer.csrfToken}
                confirm={cancellationQuestion(invitation.email)}
                label={`Cancel the invitation of ${invitation.email}`}
              >
                <Button variant="danger">Cancel invitation</Button>
              </ConfirmForm>
            )}
          </td>
        </tr>
      )}
    />
  </Card>
);

export const TeamPage = (props: {
  shell: Shell;
  members: MemberView[];
  invitations?: PendingInvitationView[];
  selfId: string;
  /** The working keys each member made, by user id. */
  keysCreated?: ReadonlyMap<string, KeysCreated>;
  notice?: string;
  errors?: string[];
  /** What was sent, shown again beside its errors. */
  form?: { email: string; role: string };
  fieldErrors?: Record<string, string>;
}) => {
  const { shell } = props;
  const admin = shell.role === 'admin';
  return (
    <Layout title="Team" shell={shell}>
      <h1>Team</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <RecordTable
          caption="Members of the account"
          headings={['E-mail', 'Role', 'Two-factor', 'Member since', 'Actions']}
          records={props.members}
          row={(m) => (
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
                    confirm={removalQuestion(m.email, props.keysCreated?.get(m.id) ?? noKeysCreated)}
                    label={`Remove ${m.email}`}
                  >
                    <Button variant="danger">Remove</Button>
                  </ConfirmForm>
                )}
              </td>
            </tr>
          )}
        />
      </Card>
      {props.invitations && props.invitations.length > 0 && <PendingInvitations shell={shell} invitations={props.invitations} />}
      {admin && (
        <FormCard
          title="Invite someone"
          intro={
            <p className="muted">
              Someone new gets an e-mail with a one-time link to choose a password (valid 24 hours). Someone who already has a user gets an
              invitation to accept or decline (valid 7 days): they join only if they accept.
            </p>
          }
          action="/dashboard/team"
          csrfToken={shell.viewer.csrfToken}
          errors={props.errors}
          submit="Invite"
        >
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="off"
            required
            value={props.form?.email}
            error={props.fieldErrors?.email}
          />
          <SelectField
            label="Role"
            name="role"
            value={props.form?.role ?? 'viewer'}
            options={[
              { value: 'viewer', label: 'Viewer: reads; can create read-only keys' },
              { value: 'admin', label: 'Admin: everything' },
            ]}
          />
        </FormCard>
      )}
    </Layout>
  );
};
