import type { Tenant } from '../../core/tenancy';

/**
 * Every key of the single table is built here (ElectroDB's conventions: generic `pk`/`sk`,
 * `gsiNpk`/`gsiNsk`, `#`-joined labelled values). Nothing else writes a key by hand.
 */
const join = (...parts: string[]): string => parts.join('#');

const tenantPrefix = ({ accountId, mode }: Tenant): string => join('ACCOUNT', accountId, 'MODE', mode);

/** Separates a sort value from the id that breaks ties; sorts below every character a name may hold. */
const tieBreak = '\u0001';

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
  testSuite: 'test_suite',
  testRun: 'test_run',
  review: 'review',
  reviewComment: 'review_comment',
  rateLimitBucket: 'rate_limit_bucket',
  user: 'user',
  userEmail: 'user_email',
  membership: 'membership',
  session: 'session',
  oneTimeLink: 'one_time_link',
  signInThrottle: 'sign_in_throttle',
  auditRecord: 'audit_record',
  oauthClient: 'oauth_client',
  oauthGrant: 'oauth_grant',
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  oauthConsent: 'oauth_consent',
} as const;

export const keys = {
  account: (id: string) => ({ pk: join('ACCOUNT', id), sk: 'ACCOUNT' }),
  accountIndex: (id: string) => ({ gsi1pk: 'ACCOUNTS', gsi1sk: join('ACCOUNT', id) }),
  accountsCollection: 'ACCOUNTS',
  accountEmail: (email: string) => ({ pk: join('ACCOUNT_EMAIL', email), sk: 'ACCOUNT_EMAIL' }),

  /** Looked up by the hash of the presented value on every request. */
  credential: (hash: string) => ({ pk: join('CREDENTIAL', hash), sk: 'CREDENTIAL' }),
  /** Leading-key pattern of credential items, for IAM conditions. */
  credentialLeadingKeyPattern: 'CREDENTIAL#*',
  credentialIndexes: (accountId: string, id: string) => ({
    gsi1pk: join('ACCOUNT', accountId, 'CREDENTIALS'),
    gsi1sk: join('CREDENTIAL', id),
    gsi2pk: join('CREDENTIAL', id),
    gsi2sk: 'CREDENTIAL',
  }),
  credentialsOfAccount: (accountId: string) => join('ACCOUNT', accountId, 'CREDENTIALS'),

  /** A credential's rate-limit bucket, shared by every function instance. */
  rateLimitBucket: (credentialId: string) => ({ pk: join('RATE_LIMIT', credentialId), sk: 'RATE_LIMIT' }),
  /** Leading-key pattern of rate-limit buckets, for IAM conditions. */
  rateLimitLeadingKeyPattern: 'RATE_LIMIT#*',
  credentialById: (id: string) => join('CREDENTIAL', id),

  projects: (tenant: Tenant) => join(tenantPrefix(tenant), 'PROJECTS'),
  projectSortKeyPrefix: 'PROJECT#',
  project: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'PROJECTS'), sk: join('PROJECT', id) }),
  projectIndexes: (tenant: Tenant, project: { id: string; name: string; updated_at: string }) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECTS'),
    gsi1sk: projectNameKey(project.name, project.id),
    gsi2pk: join(tenantPrefix(tenant), 'PROJECTS'),
    gsi2sk: projectUpdatedKey(project.updated_at, project.id),
  }),

  /** Size of a collection, kept in the same transaction as every create and delete in it. */
  counter: (collection: string) => ({ pk: collection, sk: 'COUNT' }),

  events: (tenant: Tenant) => join(tenantPrefix(tenant), 'EVENTS'),
  eventsOfType: (tenant: Tenant, type: string) => join(tenantPrefix(tenant), 'EVENTS', 'TYPE', type),
  eventSortKeyPrefix: 'EVENT#',
  event: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'EVENTS'), sk: join('EVENT', id) }),
  eventIndexes: (tenant: Tenant, type: string, id: string) => ({
    gsi1pk: join(tenantPrefix(tenant), 'EVENTS', 'TYPE', type),
    gsi1sk: join('EVENT', id),
  }),

  webhooks: (tenant: Tenant) => join(tenantPrefix(tenant), 'WEBHOOKS'),
  webhookSortKeyPrefix: 'WEBHOOK#',
  webhook: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'WEBHOOKS'), sk: join('WEBHOOK', id) }),

  deliveries: (tenant: Tenant, webhookId: string) => join(tenantPrefix(tenant), 'WEBHOOK', webhookId, 'DELIVERIES'),
  deliverySortKeyPrefix: 'DELIVERY#',
  delivery: (tenant: Tenant, webhookId: string, id: string) => ({
    pk: join(tenantPrefix(tenant), 'WEBHOOK', webhookId, 'DELIVERIES'),
    sk: join('DELIVERY', id),
  }),

  workflows: (tenant: Tenant) => join(tenantPrefix(tenant), 'WORKFLOWS'),
  workflowSortKeyPrefix: 'WORKFLOW#',
  workflow: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'WORKFLOWS'), sk: join('WORKFLOW', id) }),
  workflowsOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'WORKFLOWS'),
  workflowIndexes: (tenant: Tenant, projectId: string, id: string) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'WORKFLOWS'),
    gsi1sk: join('WORKFLOW', id),
  }),

  /** A workflow's log lines, in the order written (ULIDs are monotonic within a process). */
  workflowLogs: (tenant: Tenant, workflowId: string) => join(tenantPrefix(tenant), 'WORKFLOW', workflowId, 'LOGS'),
  workflowLogSortKeyPrefix: 'LOG#',
  workflowLog: (tenant: Tenant, workflowId: string, sortValue: string) => ({
    pk: join(tenantPrefix(tenant), 'WORKFLOW', workflowId, 'LOGS'),
    sk: join('LOG', sortValue),
  }),

  deployments: (tenant: Tenant) => join(tenantPrefix(tenant), 'DEPLOYMENTS'),
  deploymentSortKeyPrefix: 'DEPLOYMENT#',
  deployment: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'DEPLOYMENTS'), sk: join('DEPLOYMENT', id) }),
  deploymentsOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'DEPLOYMENTS'),
  deploymentsOfEnvironment: (tenant: Tenant, projectId: string, environment: string) =>
    join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment, 'DEPLOYMENTS'),
  deploymentIndexes: (tenant: Tenant, projectId: string, environment: string, id: string) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'DEPLOYMENTS'),
    gsi1sk: join('DEPLOYMENT', id),
    gsi2pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment, 'DEPLOYMENTS'),
    gsi2sk: join('DEPLOYMENT', id),
  }),
  /** Held by the one deployment (or rollback) in progress for a project and environment. */
  deploymentLock: (tenant: Tenant, projectId: string, environment: string) => ({
    pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment),
    sk: 'DEPLOYMENT_LOCK',
  }),
  /** Names the current (last completed, not rolled back) deployment of a project and environment. */
  currentDeployment: (tenant: Tenant, projectId: string, environment: string) => ({
    pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment),
    sk: 'CURRENT_DEPLOYMENT',
  }),

  scans: (tenant: Tenant) => join(tenantPrefix(tenant), 'SCANS'),
  scanSortKeyPrefix: 'SCAN#',
  scan: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'SCANS'), sk: join('SCAN', id) }),
  scansOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'SCANS'),
  scanIndexes: (tenant: Tenant, projectId: string, id: string) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'SCANS'),
    gsi1sk: join('SCAN', id),
  }),

  findings: (tenant: Tenant) => join(tenantPrefix(tenant), 'FINDINGS'),
  findingSortKeyPrefix: 'FINDING#',
  finding: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'FINDINGS'), sk: join('FINDING', id) }),
  findingsOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDINGS'),
  /** gsi1: a project's findings by creation; gsi2: the tenant's findings most severe first. */
  findingIndexes: (tenant: Tenant, projectId: string, id: string, severityRank: number) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDINGS'),
    gsi1sk: join('FINDING', id),
    gsi2pk: join(tenantPrefix(tenant), 'FINDINGS'),
    gsi2sk: `${severityRank}${tieBreak}${id}`,
  }),
  /** One per fingerprint in a project, branch and scan type: a re-scan finds the finding it reported before. */
  findingScope: (tenant: Tenant, projectId: string, branch: string, type: string) =>
    join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDING_SCOPE', encodeURIComponent(branch), type),
  findingPointer: (tenant: Tenant, projectId: string, branch: string, type: string, fingerprint: string) => ({
    pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDING_SCOPE', encodeURIComponent(branch), type),
    sk: join('FP', fingerprint),
  }),

  testSuites: (tenant: Tenant) => join(tenantPrefix(tenant), 'TEST_SUITES'),
  testSuite: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'TEST_SUITES'), sk: join('TEST_SUITE', id) }),
  testRuns: (tenant: Tenant) => join(tenantPrefix(tenant), 'TEST_RUNS'),
  testRun: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'TEST_RUNS'), sk: join('TEST_RUN', id) }),
  /**
   * Suites and runs in one creation order: gsi1 the tenant's, gsi2 a project's. The sort key is
   * the id's ULID (then the id), so suites and runs interleave by the time they were created.
   */
  testObjects: (tenant: Tenant) => join(tenantPrefix(tenant), 'TESTS'),
  testObjectsOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'TESTS'),
  testObjectSortKeyPrefix: 'TEST#',
  testObjectIndexes: (tenant: Tenant, projectId: string, id: string) => {
    const sortKey = join('TEST', id.slice(id.indexOf('_') + 1), id);
    return {
      gsi1pk: join(tenantPrefix(tenant), 'TESTS'),
      gsi1sk: sortKey,
      gsi2pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'TESTS'),
      gsi2sk: sortKey,
    };
  },

  reviews: (tenant: Tenant) => join(tenantPrefix(tenant), 'REVIEWS'),
  reviewSortKeyPrefix: 'REVIEW#',
  review: (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'REVIEWS'), sk: join('REVIEW', id) }),
  reviewsOfProject: (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'REVIEWS'),
  reviewIndexes: (tenant: Tenant, projectId: string, id: string) => ({
    gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'REVIEWS'),
    gsi1sk: join('REVIEW', id),
  }),
  /** A review's comments, in the order they were made (their ids are monotonic): the diff's reading order. */
  reviewComments: (tenant: Tenant, reviewId: string) => join(tenantPrefix(tenant), 'REVIEW', reviewId, 'COMMENTS'),
  reviewCommentSortKeyPrefix: 'COMMENT#',
  reviewComment: (tenant: Tenant, reviewId: string, id: string) => ({
    pk: join(tenantPrefix(tenant), 'REVIEW', reviewId, 'COMMENTS'),
    sk: join('COMMENT', id),
  }),

  /** The local runtime's delivery queue (SQS in AWS): ordered by due time. */
  queuedMessages: 'DELIVERY_QUEUE',
  queuedMessage: (dueMs: number, id: string) => ({ pk: 'DELIVERY_QUEUE', sk: `${String(dueMs).padStart(15, '0')}#${id}` }),

  idempotency: (tenant: Tenant, key: string) => ({ pk: join(tenantPrefix(tenant), 'IDEMPOTENCY', key), sk: 'IDEMPOTENCY' }),

  /** People: one user per e-mail across accounts; memberships and remembered consents sit under the user. */
  user: (id: string) => ({ pk: join('USER', id), sk: 'USER' }),
  userEmail: (email: string) => ({ pk: join('USER_EMAIL', email), sk: 'USER_EMAIL' }),
  membership: (userId: string, accountId: string) => ({ pk: join('USER', userId), sk: join('MEMBERSHIP', accountId) }),
  membershipSortKeyPrefix: 'MEMBERSHIP#',
  membershipIndexes: (accountId: string, userId: string) => ({
    gsi1pk: join('ACCOUNT', accountId, 'MEMBERS'),
    gsi1sk: join('USER', userId),
  }),
  membersOfAccount: (accountId: string) => join('ACCOUNT', accountId, 'MEMBERS'),
  oauthConsent: (userId: string, accountId: string, clientId: string) => ({
    pk: join('USER', userId),
    sk: join('OAUTH_CONSENT', accountId, clientId),
  }),

  /** Looked up by the hash of the cookie; listed per user for "sign out everywhere else". */
  session: (hash: string) => ({ pk: join('SESSION', hash), sk: 'SESSION' }),
  sessionIndexes: (userId: string, id: string) => ({ gsi1pk: join('USER', userId, 'SESSIONS'), gsi1sk: join('SESSION', id) }),
  sessionsOfUser: (userId: string) => join('USER', userId, 'SESSIONS'),
  oneTimeLink: (hash: string) => ({ pk: join('LINK', hash), sk: 'LINK' }),
  signInThrottle: (key: string) => ({ pk: join('THROTTLE', key), sk: 'THROTTLE' }),

  auditRecords: (accountId: string) => join('ACCOUNT', accountId, 'AUDIT'),
  auditRecord: (accountId: string, id: string) => ({ pk: join('ACCOUNT', accountId, 'AUDIT'), sk: join('AUDIT', id) }),

  oauthClient: (id: string) => ({ pk: join('OAUTH_CLIENT', id), sk: 'OAUTH_CLIENT' }),
  oauthClientIndexes: (accountId: string, id: string) => ({
    gsi1pk: join('ACCOUNT', accountId, 'OAUTH_CLIENTS'),
    gsi1sk: join('OAUTH_CLIENT', id),
  }),
  oauthClientsOfAccount: (accountId: string) => join('ACCOUNT', accountId, 'OAUTH_CLIENTS'),
  oauthGrant: (id: string) => ({ pk: join('OAUTH_GRANT', id), sk: 'OAUTH_GRANT' }),
  /** Leading-key pattern of grant items: the credential resolver records a grant's last use there. */
  oauthGrantLeadingKeyPattern: 'OAUTH_GRANT#*',
  oauthGrantIndexes: (accountId: string, id: string) => ({
    gsi1pk: join('ACCOUNT', accountId, 'OAUTH_GRANTS'),
    gsi1sk: join('OAUTH_GRANT', id),
  }),
  oauthGrantsOfAccount: (accountId: string) => join('ACCOUNT', accountId, 'OAUTH_GRANTS'),
  authorizationCode: (hash: string) => ({ pk: join('OAUTH_CODE', hash), sk: 'OAUTH_CODE' }),
  refreshToken: (hash: string) => ({ pk: join('OAUTH_REFRESH', hash), sk: 'OAUTH_REFRESH' }),
};

/** Epoch seconds for the table's TTL attribute: DynamoDB deletes the item some time after. */
export const ttlOf = (isoOrMs: string | number, graceMs = 0): number =>
  Math.ceil(((typeof isoOrMs === 'number' ? isoOrMs : Date.parse(isoOrMs)) + graceMs) / 1000);

/** Case-insensitive name order, ties broken by id. */
export const projectNameKey = (name: string, id: string): string => `${name.toLowerCase()}${tieBreak}${id}`;

/** Update-time order, ties broken by id. */
export const projectUpdatedKey = (updatedAt: string, id: string): string => `${updatedAt}${tieBreak}${id}`;

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
