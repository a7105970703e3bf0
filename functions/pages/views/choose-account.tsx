import type { InvitationDetails } from '../../core/users/answer-invitation';
import { invitationPath } from '../../core/users/invitation';
import { Layout, type Viewer } from '../layout';
import { Alert } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { InvitationAnswerForms, InvitationSummary } from './invitation';

export interface AccountChoice {
  id: string;
  email: string;
  role: string;
}

/** The invitations the person can still answer, each with Accept and Decline. */
const PendingInvitations = ({ invitations, viewer }: { invitations: InvitationDetails[]; viewer: Viewer }) => (
  <Card>
    <h2>Invitations</h2>
    <p className="muted">You join an account only when you accept its invitation.</p>
    <ul className="scope-list">
      {invitations.map((details) => (
        <li key={details.invitation.id}>
          <InvitationSummary details={details} />
          <p>
            <a href={invitationPath(details.invitation.id)}>The invitation on its own page</a>
          </p>
          <InvitationAnswerForms details={details} csrfToken={viewer.csrfToken} />
        </li>
      ))}
    </ul>
  </Card>
);

/** A user of several accounts picks the one to act for; invitations waiting for an answer are listed here too. */
export const ChooseAccountPage = (props: {
  viewer: Viewer;
  accounts: AccountChoice[];
  invitations?: InvitationDetails[];
  returnTo?: string;
  notice?: string;
}) => (
  <Layout title="Choose an account" viewer={props.viewer} narrow>
    {props.notice && <Alert kind="success">{props.notice}</Alert>}
    <Card>
      <h1>Choose an account</h1>
      {props.accounts.length === 0 ? (
        <p>
          {props.invitations && props.invitations.length > 0
            ? 'You are not a member of any account yet: accept an invitation below to join one.'
            : 'You are not a member of any account yet. Ask an admin of your team to invite you.'}
        </p>
      ) : (
        <>
          <p>
            {props.accounts.length === 1
              ? 'You belong to this one account; another account’s admin can invite you to theirs.'
              : 'You belong to several accounts. Which one do you want to act for?'}
          </p>
          <PostForm action="/dashboard/accounts" csrfToken={props.viewer.csrfToken}>
            {props.returnTo && <input type="hidden" name="return_to" value={props.returnTo} />}
            <ul className="scope-list">
              {props.accounts.map((account) => (
                <li key={account.id}>
                  <Button name="account_id" value={account.id} variant="secondary">
                    {`${account.email} (${account.id})`}
                  </Button>{' '}
                  <span className="badge">{account.role}</span>
                </li>
              ))}
            </ul>
          </PostForm>
        </>
      )}
    </Card>
    {props.invitations && props.invitations.length > 0 && <PendingInvitations invitations={props.invitations} viewer={props.viewer} />}
  </Layout>
);
