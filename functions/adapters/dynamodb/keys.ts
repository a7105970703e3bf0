/**
 * Every key of the single table is built here and in table-keys.ts (ElectroDB's conventions:
 * generic `pk`/`sk`, `gsiNpk`/`gsiNsk`, `#`-joined labelled values). Nothing else writes a key by hand.
 */
export * as keys from './table-keys';
export { projectNameKey, projectUpdatedKey } from './table-keys';

/** Above every character of an id's ULID part: closes a key range that ends at a given time. */
export const idRangeEnd = '~';

export const entityTypes = {
  account: 'account',
  accountEmail: 'account_email',
  credential: 'credential',
  project: 'project',
  counter: 'counter',
  idempotency: 'idempotency',
  event: 'event',
  webhook: 'webhook',
  delivery: 'delivery',
  queuedMessage: 'queued_message',
  workflow: 'workflow',
  workflowLog: 'workflow_log',
  deployment: 'deployment',
  deploymentLock: 'deployment_lock',
  currentDeployment: 'current_deployment',
  scan: 'scan',
  finding: 'finding',
  findingPointer: 'finding_pointer',
  findingScopeClaim: 'finding_scope_claim',
  testSuite: 'test_suite',
  testRun: 'test_run',
  review: 'review',
  reviewComment: 'review_comment',
  rateLimitBucket: 'rate_limit_bucket',
  user: 'user',
  userEmail: 'user_email',
  membership: 'membership',
  invitation: 'invitation',
  invitationPointer: 'invitation_pointer',
  session: 'session',
  oneTimeLink: 'one_time_link',
  signInThrottle: 'sign_in_throttle',
  passwordResetRequest: 'password_reset_request',
  auditRecord: 'audit_record',
  oauthClient: 'oauth_client',
  oauthGrant: 'oauth_grant',
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  oauthConsent: 'oauth_consent',
} as const;

/** Epoch seconds for the table's TTL attribute: DynamoDB deletes the item some time after. */
export const ttlOf = (isoOrMs: string | number, graceMs = 0): number =>
  Math.ceil(((typeof isoOrMs === 'number' ? isoOrMs : Date.parse(isoOrMs)) + graceMs) / 1000);

/** On a project item: how many of its workflows are queued or running. A project with any cannot be deleted. */
export const activeWorkflowsAttribute = 'active_workflows';

/** On a project item: how many of its deployments are queued or in progress. */
export const activeDeploymentsAttribute = 'active_deployments';

export const keyAttributeNames = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'ttl', 'entity'] as const;

/** The stored item without its keys, bookkeeping and owner attributes (`account_id`, `mode`). */
export const ownedRecord = <T>(item: Record<string, unknown>): T => {
  const { account_id: _account, mode: _mode, ...record } = withoutKeys<Record<string, unknown>>(item);
  return record as T;
};

/** The stored item without its keys and bookkeeping: the entity itself. */
export const withoutKeys = <T>(item: Record<string, unknown>): T => {
  const copy: Record<string, unknown> = { ...item };
  for (const name of keyAttributeNames) delete copy[name];
  return copy as T;
};
