import type { InvitationDetails, UnavailableReason } from '../../core/users/answer-invitation';
import { accountName } from '../../core/users/invitations';
import { invitationPath } from '../../core/users/invitation';
import { Layout, type Viewer } from '../layout';
import { Alert } from '../parts/alert';
import { Button } from '../parts/button';
import { Card } from '../parts/card';
import { PostForm } from '../parts/post-form';
import { Time } from '../parts/time';

/** Accept and Decline of one invitation: on its own page and in the account chooser's list. */
export const InvitationAnswerForms = ({ details, csrfToken }: { details: InvitationDetails; csrfToken: string }) => {
  const path = invitationPath(details.invitation.id);
  const name = accountName(details.account, details.invitation.account_id);
  return (
    <div className="actions">
      <PostForm action={`${path}/accept`} csrfToken={csrfToken} className="inline-form" label={`Accept the invitation to ${name}`}>
        <Button>Accept</Button>
      </PostForm>
      <PostForm action={`${path}/decline`} csrfToken={csrfToken} className="inline-form" label={`Decline the invitation to ${name}`}>
        <Button variant="secondary">Decline</Button>
      </PostForm>
    </div>
  );
};

/** Who asks, for which account and role, until when. */
export const InvitationSummary = ({ details }: { details: InvitationDetails }) => (
  <p>
    {details.invitedByEmail ?? 'An admin'} invited you to join the account{' '}
    <strong>{accountName(details.account, details.invitation.account_id)}</strong> as <strong>{details.invitation.role}</strong>. It expires{' '}
    <Time iso={details.invitation.expires_at} />.
  </p>
);

/** An invitation the signed-in person can still answer. */
export const InvitationPage = (props: { viewer: Viewer; details: InvitationDetails }) => (
  <Layout title="Invitation" viewer={props.viewer} narrow>
    <Card>
      <h1>Invitation to join an account</h1>
      <InvitationSummary details={props.details} />
      <p className="muted">
        You become a member only if you accept: the account then appears under Switch account. If you do not know it, decline.
      </p>
      <InvitationAnswerForms details={props.details} csrfToken={props.viewer.csrfToken} />
    </Card>
  </Layout>
);

const titles: Record<UnavailableReason, string> = {
  not_found: 'There is no such invitation',
  someone_else: 'This invitation is for someone else',
  accepted: 'You accepted this invitation already',
  declined: 'You declined this invitation',
  cancelled: 'This invitation was cancelled',
  expired: 'This invitation has expired',
  member: 'You are a member of this account already',
};

/** The HTTP status of each: not found, not yours (403), answered already (409), no longer valid (410). */
export const unavailableStatus: Record<UnavailableReason, number> = {
  not_found: 404,
  someone_else: 403,
  accepted: 409,
  declined: 409,
  cancelled: 410,
  expired: 410,
  member: 409,
};

const explanation = (reason: UnavailableReason, viewer: Viewer, answeredAt: string | null, expiresAt: string | undefined) => {
  switch (reason) {
    case 'not_found':
      return 'It was replaced by a newer invitation, or removed some time after it expired. Ask an admin of the account to invite you again.';
    case 'someone_else':
      return (
        <>
          You are signed in as {viewer.email}, and this invitation was sent to another person: only they can answer it. Sign out, then open
          the link again and sign in as the person it was sent to.
        </>
      );
    case 'accepted':
      return (
        <>
          It was accepted <Time iso={answeredAt} />. Choose the account under <a href="/dashboard/accounts">Switch account</a>.
        </>
      );
    case 'declined':
      return (
        <>
          You declined it <Time iso={answeredAt} />. If you changed your mind, ask an admin of the account to invite you again.
        </>
      );
    case 'cancelled':
      return (
        <>
          An admin of the account cancelled it <Time iso={answeredAt} />.
        </>
      );
    case 'expired':
      return (
        <>
          It expired <Time iso={expiresAt} />. Ask an admin of the account to invite you again.
        </>
      );
    case 'member':
      return (
        <>
          Choose the account under <a href="/dashboard/accounts">Switch account</a>.
        </>
      );
  }
};

/** Why an invitation cannot be answered; nothing was changed. */
export const InvitationUnavailablePage = (props: {
  viewer: Viewer;
  reason: UnavailableReason;
  answeredAt?: string | null;
  expiresAt?: string;
  /** The answer to an Accept or Decline (rather than a look at the link): it says nothing was changed. */
  answering?: boolean;
}) => (
  <Layout title={titles[props.reason]} viewer={props.viewer} narrow>
    <Card>
      <h1>{titles[props.reason]}</h1>
      <Alert kind={props.reason === 'someone_else' ? 'error' : 'info'}>
        <p>
          {explanation(props.reason, props.viewer, props.answeredAt ?? null, props.expiresAt)}
          {props.answering && ' Nothing was changed.'}
        </p>
      </Alert>
      <p>
        <a href="/dashboard/accounts">Your accounts and invitations</a>
      </p>
    </Card>
  </Layout>
);
