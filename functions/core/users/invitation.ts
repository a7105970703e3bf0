import { type AuditAction, type AuditRecord, auditRecordOf, type RequestOrigin } from '../audit/audit';
import { isoTime } from '../clock';
import { newId } from '../ids';
import type { Membership, Role } from './user';

/**
 * An invitation of someone who has a user already to join an account: they become a member only
 * when they accept it, signed in as themselves (as GitHub's organisation invitations). A person
 * without a user is created as a member with a link to choose a password instead (`inviteMember`).
 */
export interface Invitation {
  id: string;
  account_id: string;
  /** The invited user, and the e-mail the invitation was sent to. */
  user_id: string;
  email: string;
  role: Role;
  /** The admin who sent it. */
  invited_by: string;
  created_at: string;
  expires_at: string;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  /** When it was accepted, declined or cancelled; null while pending. */
  answered_at: string | null;
}

export const invitationLifetimeMs = 7 * 86_400_000;

/** Where the invitee sees an invitation (the e-mail's link). */
export const invitationPath = (id: string): string => `/dashboard/invitations/${encodeURIComponent(id)}`;

/** An invitation as it stands at `now`: a pending one past its expiry is `expired`. */
export type InvitationState = Invitation['status'] | 'expired';

export const invitationState = (invitation: Invitation, now: number): InvitationState =>
  invitation.status === 'pending' && Date.parse(invitation.expires_at) <= now ? 'expired' : invitation.status;

/** Whether the invitee may still accept or decline it. */
export const isOpen = (invitation: Invitation, now: number): boolean => invitationState(invitation, now) === 'pending';

export interface InvitationRepository {
  /**
   * Stores a pending invitation with its audit record. 'member' when the user is a member of the
   * account already, 'pending' when an invitation of theirs to it is still open (a closed or
   * expired one is replaced: one invitation per person and account).
   */
  create(invitation: Invitation, audit: AuditRecord, now: string): Promise<'created' | 'member' | 'pending'>;
  get(id: string): Promise<Invitation | undefined>;
  /** Every invitation of the account still stored (any status), oldest first. */
  ofAccount(accountId: string): Promise<Invitation[]>;
  /** Every invitation of the user still stored (any status), oldest first. */
  ofUser(userId: string): Promise<Invitation[]>;
  /**
   * Accepts it for its user: the invitation becomes `accepted` and the membership is added, with
   * the audit record, at once, only while it is pending and unexpired at `now`. 'closed' when it
   * is not (answered, cancelled, expired or replaced), 'member' when the user is a member already.
   */
  accept(invitation: Invitation, membership: Membership, now: string, audit: AuditRecord): Promise<'accepted' | 'closed' | 'member'>;
  /**
   * Closes it (`declined` by its user, `cancelled` by an admin of its account) with the audit
   * record, only while pending (a cancel also once expired); false when it was not.
   */
  close(invitation: Invitation, status: 'declined' | 'cancelled', now: string, audit: AuditRecord): Promise<boolean>;
}

/** The audit record of a step in an invitation's life (sent, accepted, declined, cancelled), by whoever took it. */
export const invitationAuditRecord = (
  invitation: Invitation,
  step: { action: AuditAction; actorId: string; origin: RequestOrigin; now: number; details?: Record<string, unknown> },
): AuditRecord =>
  auditRecordOf(
    {
      accountId: invitation.account_id,
      action: step.action,
      actor: { type: 'user', id: step.actorId },
      targetId: invitation.user_id,
      details: { email: invitation.email, role: invitation.role, invitation_id: invitation.id, ...step.details },
      origin: step.origin,
    },
    newId('auditRecord', step.now),
    isoTime(step.now),
  );
