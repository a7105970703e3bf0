/**
 * The audit log of an account: who signed in, who granted or revoked what. Kept in the table for
 * `auditRetentionDays`, readable by the account's admins.
 */
export const auditActions = [
  'user.signed_in',
  'user.sign_in_failed',
  'user.signed_out',
  'user.sessions_revoked',
  'user.password_changed',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'user.recovery_codes_regenerated',
  'user.invited',
  'user.invitation_declined',
  'user.invitation_cancelled',
  'user.added',
  'user.removed',
  'credential.created',
  'credential.revoked',
  'credential.rolled',
  'oauth.client_created',
  'oauth.client_updated',
  'oauth.client_deleted',
  'oauth.client_secret_rotated',
  'oauth.grant_created',
  'oauth.grant_revoked',
  'oauth.token_revoked',
] as const;

export type AuditAction = (typeof auditActions)[number];

/** Who did it: a signed-in user, the admin CLI, an application (by client id) or the service itself. */
export interface AuditActor {
  type: 'user' | 'cli' | 'application' | 'service';
  id: string | null;
}

export interface AuditRecord {
  id: string;
  account_id: string;
  action: AuditAction;
  actor: AuditActor;
  /** What it was done to: `usr_…`, `grt_…`, `oac_…`. */
  target_id: string | null;
  /** Facts of the action (scopes, reason); never a secret. */
  details: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export const auditRetentionDays = 400;

/** Where a request came from, as the pages and endpoints see it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface AuditLog {
  record(record: AuditRecord): Promise<void>;
  /** Newest first. */
  list(accountId: string, limit: number): Promise<AuditRecord[]>;
}

/** A record of `action` at `now`, by `actor`, from `origin`. */
export const auditRecordOf = (
  input: {
    accountId: string;
    action: AuditAction;
    actor: AuditActor;
    targetId?: string | null;
    details?: Record<string, unknown>;
    origin?: RequestOrigin;
  },
  id: string,
  at: string,
): AuditRecord => ({
  id,
  account_id: input.accountId,
  action: input.action,
  actor: input.actor,
  target_id: input.targetId ?? null,
  details: input.details ?? {},
  ip: input.origin?.ip ?? null,
  user_agent: input.origin?.userAgent?.slice(0, 512) ?? null,
  created_at: at,
});
