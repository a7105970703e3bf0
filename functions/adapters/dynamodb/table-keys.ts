import type { Tenant } from '../../core/tenancy';

/**
 * Every key of the single table, one export each (ElectroDB's conventions: generic `pk`/`sk`,
 * `gsiNpk`/`gsiNsk`, `#`-joined labelled values); read as `keys.…` through keys.ts. One export per
 * key rather than one object: a function's bundle carries the keys its repositories use, not all
 * of them.
 */
const join = (...parts: string[]): string => parts.join('#');

const tenantPrefix = ({ accountId, mode }: Tenant): string => join('ACCOUNT', accountId, 'MODE', mode);

/** Separates a sort value from the id that breaks ties; sorts below every character a name may hold. */
export const tieBreak = '\u0001';

/** Case-insensitive name order, ties broken by id. */
export const projectNameKey = (name: string, id: string): string => `${name.toLowerCase()}${tieBreak}${id}`;

/** Update-time order, ties broken by id. */
export const projectUpdatedKey = (updatedAt: string, id: string): string => `${updatedAt}${tieBreak}${id}`;

export const account = (id: string) => ({ pk: join('ACCOUNT', id), sk: 'ACCOUNT' });
export const accountIndex = (id: string) => ({ gsi1pk: 'ACCOUNTS', gsi1sk: join('ACCOUNT', id) });
export const accountsCollection = 'ACCOUNTS';
export const accountEmail = (email: string) => ({ pk: join('ACCOUNT_EMAIL', email), sk: 'ACCOUNT_EMAIL' });

/** Looked up by the hash of the presented value on every request. */
export const credential = (hash: string) => ({ pk: join('CREDENTIAL', hash), sk: 'CREDENTIAL' });
/** Leading-key pattern of credential items, for IAM conditions. */
export const credentialLeadingKeyPattern = 'CREDENTIAL#*';
export const credentialIndexes = (accountId: string, id: string) => ({
  gsi1pk: join('ACCOUNT', accountId, 'CREDENTIALS'),
  gsi1sk: join('CREDENTIAL', id),
  gsi2pk: join('CREDENTIAL', id),
  gsi2sk: 'CREDENTIAL',
});
export const credentialsOfAccount = (accountId: string) => join('ACCOUNT', accountId, 'CREDENTIALS');

/** A credential's rate-limit bucket, shared by every function instance. */
export const rateLimitBucket = (credentialId: string) => ({ pk: join('RATE_LIMIT', credentialId), sk: 'RATE_LIMIT' });
/** Leading-key pattern of rate-limit buckets, for IAM conditions. */
export const rateLimitLeadingKeyPattern = 'RATE_LIMIT#*';
export const credentialById = (id: string) => join('CREDENTIAL', id);

export const projects = (tenant: Tenant) => join(tenantPrefix(tenant), 'PROJECTS');
export const projectSortKeyPrefix = 'PROJECT#';
export const project = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'PROJECTS'), sk: join('PROJECT', id) });
export const projectIndexes = (tenant: Tenant, project: { id: string; name: string; updated_at: string }) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECTS'),
  gsi1sk: projectNameKey(project.name, project.id),
  gsi2pk: join(tenantPrefix(tenant), 'PROJECTS'),
  gsi2sk: projectUpdatedKey(project.updated_at, project.id),
});

/** Size of a collection, kept in the same transaction as every create and delete in it. */
export const counter = (collection: string) => ({ pk: collection, sk: 'COUNT' });

export const events = (tenant: Tenant) => join(tenantPrefix(tenant), 'EVENTS');
export const eventsOfType = (tenant: Tenant, type: string) => join(tenantPrefix(tenant), 'EVENTS', 'TYPE', type);
export const eventSortKeyPrefix = 'EVENT#';
export const event = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'EVENTS'), sk: join('EVENT', id) });
export const eventIndexes = (tenant: Tenant, type: string, id: string) => ({
  gsi1pk: join(tenantPrefix(tenant), 'EVENTS', 'TYPE', type),
  gsi1sk: join('EVENT', id),
});

export const webhooks = (tenant: Tenant) => join(tenantPrefix(tenant), 'WEBHOOKS');
export const webhookSortKeyPrefix = 'WEBHOOK#';
export const webhook = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'WEBHOOKS'), sk: join('WEBHOOK', id) });
/** The counter of the tenant's failed webhooks (the dashboard's badge): `counter(failedWebhooks(tenant))`. */
export const failedWebhooks = (tenant: Tenant) => join(tenantPrefix(tenant), 'WEBHOOKS', 'FAILED');
/** The counter of the tenant's running workflows (Home's count): `counter(runningWorkflows(tenant))`. */
export const runningWorkflows = (tenant: Tenant) => join(tenantPrefix(tenant), 'WORKFLOWS', 'RUNNING');
/** The counter of the tenant's open critical findings (Home's count): `counter(openCriticalFindings(tenant))`. */
export const openCriticalFindings = (tenant: Tenant) => join(tenantPrefix(tenant), 'FINDINGS', 'OPEN_CRITICAL');
/** The counter of the tenant's deployments in progress (Home's count): `counter(deploymentsInProgress(tenant))`. */
export const deploymentsInProgress = (tenant: Tenant) => join(tenantPrefix(tenant), 'DEPLOYMENTS', 'IN_PROGRESS');

export const deliveries = (tenant: Tenant, webhookId: string) => join(tenantPrefix(tenant), 'WEBHOOK', webhookId, 'DELIVERIES');
export const deliverySortKeyPrefix = 'DELIVERY#';
export const delivery = (tenant: Tenant, webhookId: string, id: string) => ({
  pk: join(tenantPrefix(tenant), 'WEBHOOK', webhookId, 'DELIVERIES'),
  sk: join('DELIVERY', id),
});

export const workflows = (tenant: Tenant) => join(tenantPrefix(tenant), 'WORKFLOWS');
export const workflowSortKeyPrefix = 'WORKFLOW#';
export const workflow = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'WORKFLOWS'), sk: join('WORKFLOW', id) });
export const workflowsOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'WORKFLOWS');
export const workflowIndexes = (tenant: Tenant, projectId: string, id: string) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'WORKFLOWS'),
  gsi1sk: join('WORKFLOW', id),
});

/** A workflow's log lines, in the order written (ULIDs are monotonic within a process). */
export const workflowLogs = (tenant: Tenant, workflowId: string) => join(tenantPrefix(tenant), 'WORKFLOW', workflowId, 'LOGS');
export const workflowLogSortKeyPrefix = 'LOG#';
export const workflowLog = (tenant: Tenant, workflowId: string, sortValue: string) => ({
  pk: join(tenantPrefix(tenant), 'WORKFLOW', workflowId, 'LOGS'),
  sk: join('LOG', sortValue),
});

export const deployments = (tenant: Tenant) => join(tenantPrefix(tenant), 'DEPLOYMENTS');
export const deploymentSortKeyPrefix = 'DEPLOYMENT#';
export const deployment = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'DEPLOYMENTS'), sk: join('DEPLOYMENT', id) });
export const deploymentsOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'DEPLOYMENTS');
export const deploymentsOfEnvironment = (tenant: Tenant, projectId: string, environment: string) =>
  join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment, 'DEPLOYMENTS');
export const deploymentIndexes = (tenant: Tenant, projectId: string, environment: string, id: string) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'DEPLOYMENTS'),
  gsi1sk: join('DEPLOYMENT', id),
  gsi2pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment, 'DEPLOYMENTS'),
  gsi2sk: join('DEPLOYMENT', id),
});
/** Held by the one deployment (or rollback) in progress for a project and environment. */
export const deploymentLock = (tenant: Tenant, projectId: string, environment: string) => ({
  pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment),
  sk: 'DEPLOYMENT_LOCK',
});
/** Names the current (last completed, not rolled back) deployment of a project and environment. */
export const currentDeployment = (tenant: Tenant, projectId: string, environment: string) => ({
  pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'ENV', environment),
  sk: 'CURRENT_DEPLOYMENT',
});

export const scans = (tenant: Tenant) => join(tenantPrefix(tenant), 'SCANS');
export const scanSortKeyPrefix = 'SCAN#';
export const scan = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'SCANS'), sk: join('SCAN', id) });
export const scansOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'SCANS');
export const scanIndexes = (tenant: Tenant, projectId: string, id: string) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'SCANS'),
  gsi1sk: join('SCAN', id),
});

export const findings = (tenant: Tenant) => join(tenantPrefix(tenant), 'FINDINGS');
export const findingSortKeyPrefix = 'FINDING#';
export const finding = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'FINDINGS'), sk: join('FINDING', id) });
export const findingsOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDINGS');
/** gsi1: a project's findings by creation; gsi2: the tenant's findings most severe first. */
export const findingIndexes = (tenant: Tenant, projectId: string, id: string, severityRank: number) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDINGS'),
  gsi1sk: join('FINDING', id),
  gsi2pk: join(tenantPrefix(tenant), 'FINDINGS'),
  gsi2sk: `${severityRank}${tieBreak}${id}`,
});
/** One per fingerprint in a project, branch and scan type: a re-scan finds the finding it reported before. */
export const findingScope = (tenant: Tenant, projectId: string, branch: string, type: string) =>
  join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDING_SCOPE', encodeURIComponent(branch), type);
/** Which scan may change a scope's findings (`ScopeClaim`): one item per project, branch and scan type. */
export const findingScopeClaim = (tenant: Tenant, projectId: string, branch: string, type: string) => ({
  pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDING_SCOPE_CLAIM', encodeURIComponent(branch), type),
  sk: 'CLAIM',
});
export const findingPointer = (tenant: Tenant, projectId: string, branch: string, type: string, fingerprint: string) => ({
  pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'FINDING_SCOPE', encodeURIComponent(branch), type),
  sk: join('FP', fingerprint),
});

export const testSuites = (tenant: Tenant) => join(tenantPrefix(tenant), 'TEST_SUITES');
export const testSuite = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'TEST_SUITES'), sk: join('TEST_SUITE', id) });
export const testRuns = (tenant: Tenant) => join(tenantPrefix(tenant), 'TEST_RUNS');
export const testRun = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'TEST_RUNS'), sk: join('TEST_RUN', id) });
/**
 * Suites and runs in one creation order: gsi1 the tenant's, gsi2 a project's. The sort key is
 * the id's ULID (then the id), so suites and runs interleave by the time they were created.
 */
export const testObjects = (tenant: Tenant) => join(tenantPrefix(tenant), 'TESTS');
export const testObjectsOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'TESTS');
export const testObjectSortKeyPrefix = 'TEST#';
export const testObjectIndexes = (tenant: Tenant, projectId: string, id: string) => {
  const sortKey = join('TEST', id.slice(id.indexOf('_') + 1), id);
  return {
    gsi1pk: join(tenantPrefix(tenant), 'TESTS'),
    gsi1sk: sortKey,
    gsi2pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'TESTS'),
    gsi2sk: sortKey,
  };
};

export const reviews = (tenant: Tenant) => join(tenantPrefix(tenant), 'REVIEWS');
export const reviewSortKeyPrefix = 'REVIEW#';
export const review = (tenant: Tenant, id: string) => ({ pk: join(tenantPrefix(tenant), 'REVIEWS'), sk: join('REVIEW', id) });
export const reviewsOfProject = (tenant: Tenant, projectId: string) => join(tenantPrefix(tenant), 'PROJECT', projectId, 'REVIEWS');
export const reviewIndexes = (tenant: Tenant, projectId: string, id: string) => ({
  gsi1pk: join(tenantPrefix(tenant), 'PROJECT', projectId, 'REVIEWS'),
  gsi1sk: join('REVIEW', id),
});
/** A review's comments, in the order they were made (their ids are monotonic): the diff's reading order. */
export const reviewComments = (tenant: Tenant, reviewId: string) => join(tenantPrefix(tenant), 'REVIEW', reviewId, 'COMMENTS');
export const reviewCommentSortKeyPrefix = 'COMMENT#';
export const reviewComment = (tenant: Tenant, reviewId: string, id: string) => ({
  pk: join(tenantPrefix(tenant), 'REVIEW', reviewId, 'COMMENTS'),
  sk: join('COMMENT', id),
});

/** The local runtime's delivery queue (SQS in AWS): ordered by due time. */
export const queuedMessages = 'DELIVERY_QUEUE';
export const queuedMessage = (dueMs: number, id: string) => ({ pk: 'DELIVERY_QUEUE', sk: `${String(dueMs).padStart(15, '0')}#${id}` });

export const idempotency = (tenant: Tenant, key: string) => ({ pk: join(tenantPrefix(tenant), 'IDEMPOTENCY', key), sk: 'IDEMPOTENCY' });

/** People: one user per e-mail across accounts; memberships and remembered consents sit under the user. */
export const user = (id: string) => ({ pk: join('USER', id), sk: 'USER' });
export const userEmail = (email: string) => ({ pk: join('USER_EMAIL', email), sk: 'USER_EMAIL' });
export const membership = (userId: string, accountId: string) => ({ pk: join('USER', userId), sk: join('MEMBERSHIP', accountId) });
export const membershipSortKeyPrefix = 'MEMBERSHIP#';
export const membershipIndexes = (accountId: string, userId: string) => ({
  gsi1pk: join('ACCOUNT', accountId, 'MEMBERS'),
  gsi1sk: join('USER', userId),
});
export const membersOfAccount = (accountId: string) => join('ACCOUNT', accountId, 'MEMBERS');
/** An invitation to an account, one per person and account, under the invited user beside their memberships. */
export const invitation = (userId: string, accountId: string) => ({ pk: join('USER', userId), sk: join('INVITATION', accountId) });
export const invitationSortKeyPrefix = 'INVITATION#';
/** Listed per account (the Team page). */
export const invitationIndexes = (accountId: string, userId: string) => ({
  gsi1pk: join('ACCOUNT', accountId, 'INVITATIONS'),
  gsi1sk: join('USER', userId),
});
export const invitationsOfAccount = (accountId: string) => join('ACCOUNT', accountId, 'INVITATIONS');
/**
 * Where an invitation's id (the e-mail's link) points: its person and account, read consistently,
 * so that a link opened the moment it is sent finds it (an index would be read eventually).
 */
export const invitationPointer = (id: string) => ({ pk: join('INVITATION', id), sk: 'INVITATION' });
export const oauthConsent = (userId: string, accountId: string, clientId: string) => ({
  pk: join('USER', userId),
  sk: join('OAUTH_CONSENT', accountId, clientId),
});

/** Looked up by the hash of the cookie; listed per user for "sign out everywhere else". */
export const session = (hash: string) => ({ pk: join('SESSION', hash), sk: 'SESSION' });
/** Leading-key pattern of session items: a page read records the session's last use there. */
export const sessionLeadingKeyPattern = 'SESSION#*';
export const sessionIndexes = (userId: string, id: string) => ({ gsi1pk: join('USER', userId, 'SESSIONS'), gsi1sk: join('SESSION', id) });
export const sessionsOfUser = (userId: string) => join('USER', userId, 'SESSIONS');
export const oneTimeLink = (hash: string) => ({ pk: join('LINK', hash), sk: 'LINK' });
export const signInThrottle = (key: string) => ({ pk: join('THROTTLE', key), sk: 'THROTTLE' });
/** A "forgot password" request until the stream's function has sent its e-mail (or found no user). */
export const passwordResetRequest = (id: string) => ({ pk: join('RESET_REQUEST', id), sk: 'RESET_REQUEST' });

export const auditRecords = (accountId: string) => join('ACCOUNT', accountId, 'AUDIT');
export const auditRecord = (accountId: string, id: string) => ({ pk: join('ACCOUNT', accountId, 'AUDIT'), sk: join('AUDIT', id) });

export const oauthClient = (id: string) => ({ pk: join('OAUTH_CLIENT', id), sk: 'OAUTH_CLIENT' });
export const oauthClientIndexes = (accountId: string, id: string) => ({
  gsi1pk: join('ACCOUNT', accountId, 'OAUTH_CLIENTS'),
  gsi1sk: join('OAUTH_CLIENT', id),
});
export const oauthClientsOfAccount = (accountId: string) => join('ACCOUNT', accountId, 'OAUTH_CLIENTS');
export const oauthGrant = (id: string) => ({ pk: join('OAUTH_GRANT', id), sk: 'OAUTH_GRANT' });
/** Leading-key pattern of grant items: the credential resolver records a grant's last use there. */
export const oauthGrantLeadingKeyPattern = 'OAUTH_GRANT#*';
export const oauthGrantIndexes = (accountId: string, id: string) => ({
  gsi1pk: join('ACCOUNT', accountId, 'OAUTH_GRANTS'),
  gsi1sk: join('OAUTH_GRANT', id),
});
export const oauthGrantsOfAccount = (accountId: string) => join('ACCOUNT', accountId, 'OAUTH_GRANTS');
export const authorizationCode = (hash: string) => ({ pk: join('OAUTH_CODE', hash), sk: 'OAUTH_CODE' });
export const refreshToken = (hash: string) => ({ pk: join('OAUTH_REFRESH', hash), sk: 'OAUTH_REFRESH' });
