import { type Clock, systemClock } from '../../core/clock';
import type { TableRef } from './client';
import { dynamoAccountRepository } from './account-repository';
import { dynamoAuditLog } from './audit-log';
import { dynamoCredentialRepository } from './credential-repository';
import { dynamoInvitationRepository } from './invitation-repository';
import { dynamoOAuthClientRepository } from './oauth-client-repository';
import { dynamoOAuthGrantStore } from './oauth-grant-store';
import { dynamoOneTimeLinkRepository } from './one-time-link-repository';
import { dynamoPasswordResetRequestStore } from './password-reset-request-store';
import { dynamoSessionRepository } from './session-repository';
import { dynamoSignInThrottleStore } from './sign-in-throttle-store';
import { dynamoSignedInReads } from './signed-in-reads';
import { dynamoUserRepository } from './user-repository';

/**
 * People, sessions and the authorization server on a table: what the pages, the OAuth endpoints,
 * the CLI and the local runtime's first start use.
 */
export const peopleDeps = (table: TableRef, clock: Clock = systemClock) => ({
  accounts: dynamoAccountRepository(table),
  credentials: dynamoCredentialRepository(table),
  users: dynamoUserRepository(table),
  sessions: dynamoSessionRepository(table),
  signedInReads: dynamoSignedInReads(table),
  links: dynamoOneTimeLinkRepository(table),
  invitations: dynamoInvitationRepository(table),
  resetRequests: dynamoPasswordResetRequestStore(table),
  throttle: dynamoSignInThrottleStore(table),
  audit: dynamoAuditLog(table),
  clients: dynamoOAuthClientRepository(table),
  grants: dynamoOAuthGrantStore(table),
  clock,
});

export type PeopleDeps = ReturnType<typeof peopleDeps>;
