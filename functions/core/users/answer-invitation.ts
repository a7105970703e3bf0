import type { RequestOrigin } from '../audit/audit';
import { type Clock, isoTime } from '../clock';
import type { AccountRepository } from '../credentials/credential';
import { ApiError, type ErrorCode } from '../errors';
import { isId } from '../ids';
import { type Invitation, invitationAuditRecord, type InvitationRepository, invitationState, isOpen } from './invitation';
import type { Membership, UserRepository } from './user';

export interface AnswerInvitationDeps {
  invitations: InvitationRepository;
  users: Pick<UserRepository, 'get'>;
  accounts: Pick<AccountRepository, 'get'>;
  clock: Clock;
}

/** Why an invitation cannot be answered (the page says so in words; nothing is changed). */
export type UnavailableReason = 'not_found' | 'someone_else' | 'accepted' | 'declined' | 'cancelled' | 'expired' | 'member';

const codes: Record<UnavailableReason, ErrorCode> = {
  not_found: 'not_found',
  someone_else: 'insufficient_scope',
  accepted: 'conflict',
  declined: 'conflict',
  cancelled: 'conflict',
  expired: 'conflict',
  member: 'conflict',
};

export class InvitationUnavailable extends ApiError {
  constructor(
    readonly reason: UnavailableReason,
    /** The invitation, when it is the invitee's own (never another person's). */
    readonly invitation?: Invitation,
  ) {
    super(codes[reason], `This invitation cannot be answered: ${reason.replace('_', ' ')}.`);
    this.name = 'InvitationUnavailable';
  }
}

/** What the invitee sees of an invitation of theirs. */
export interface InvitationDetails {
  invitation: Invitation;
  account: { id: string; email: string } | undefined;
  invitedByEmail: string | null;
}

const ownInvitation = async (id: string, userId: string, deps: AnswerInvitationDeps): Promise<Invitation> => {
  const invitation = isId('invitation', id) ? await deps.invitations.get(id) : undefined;
  if (!invitation) throw new InvitationUnavailable('not_found');
  // Only whether it exists is told to someone else: not the account, the role or the address.
  if (invitation.user_id !== userId) throw new InvitationUnavailable('someone_else');
  return invitation;
};

const unlessOpen = (invitation: Invitation, now: number): void => {
  const state = invitationState(invitation, now);
  if (state !== 'pending') throw new InvitationUnavailable(state, invitation);
};

const detailsOf = async (invitation: Invitation, deps: AnswerInvitationDeps): Promise<InvitationDetails> => {
  const [account, inviter] = await Promise.all([deps.accounts.get(invitation.account_id), deps.users.get(invitation.invited_by)]);
  return { invitation, account, invitedByEmail: inviter?.email ?? null };
};

/** The signed-in person's invitation `id` while they can still answer it; else why not. */
export const openInvitation = async (id: string, userId: string, deps: AnswerInvitationDeps): Promise<InvitationDetails> => {
  const invitation = await ownInvitation(id, userId, deps);
  unlessOpen(invitation, deps.clock.now());
  return detailsOf(invitation, deps);
};

/** The invitations the person can still answer, oldest first (the account chooser lists them). */
export const openInvitationsOf = async (userId: string, deps: AnswerInvitationDeps): Promise<InvitationDetails[]> => {
  const now = deps.clock.now();
  const open = (await deps.invitations.ofUser(userId)).filter((invitation) => isOpen(invitation, now));
  return Promise.all(open.map((invitation) => detailsOf(invitation, deps)));
};

/** After a write was refused: what became of the invitation meanwhile. */
const whyRefused = async (invitation: Invitation, userId: string, deps: AnswerInvitationDeps): Promise<InvitationUnavailable> => {
  const current = await deps.invitations.get(invitation.id);
  if (!current || current.user_id !== userId) return new InvitationUnavailable('not_found');
  const state = invitationState(current, deps.clock.now());
  // Still pending means it expired between the read and the write.
  return new InvitationUnavailable(state === 'pending' ? 'expired' : state, current);
};

/**
 * The invitee joins the account with the invitation's role. Only the invited user, only once,
 * only while it is pending and unexpired: the membership, the invitation's answer and the audit
 * record are one conditional write, so two accepts at once add one membership.
 */
export const acceptInvitation = async (
  input: { id: string; userId: string; origin: RequestOrigin },
  deps: AnswerInvitationDeps,
): Promise<InvitationDetails & { membership: Membership }> => {
  const invitation = await ownInvitation(input.id, input.userId, deps);
  const now = deps.clock.now();
  unlessOpen(invitation, now);
  const membership: Membership = {
    account_id: invitation.account_id,
    user_id: invitation.user_id,
    role: invitation.role,
    created_at: isoTime(now),
  };
  const record = invitationAuditRecord(invitation, {
    action: 'user.added',
    actorId: invitation.user_id,
    origin: input.origin,
    now,
    details: { invited_by: invitation.invited_by },
  });
  const outcome = await deps.invitations.accept(invitation, membership, isoTime(now), record);
  if (outcome === 'member') throw new InvitationUnavailable('member', invitation);
  if (outcome === 'closed') throw await whyRefused(invitation, input.userId, deps);
  return { ...(await detailsOf({ ...invitation, status: 'accepted', answered_at: isoTime(now) }, deps)), membership };
};

/** The invitee says no: the invitation is closed, and nothing else changes. */
export const declineInvitation = async (
  input: { id: string; userId: string; origin: RequestOrigin },
  deps: AnswerInvitationDeps,
): Promise<InvitationDetails> => {
  const invitation = await ownInvitation(input.id, input.userId, deps);
  const now = deps.clock.now();
  unlessOpen(invitation, now);
  const record = invitationAuditRecord(invitation, {
    action: 'user.invitation_declined',
    actorId: invitation.user_id,
    origin: input.origin,
    now,
  });
  if (!(await deps.invitations.close(invitation, 'declined', isoTime(now), record))) throw await whyRefused(invitation, input.userId, deps);
  return detailsOf({ ...invitation, status: 'declined', answered_at: isoTime(now) }, deps);
};
