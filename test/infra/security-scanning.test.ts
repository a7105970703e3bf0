import { routeTable as routes } from '../../functions/routes/index';
import { defaultBedrockModelId } from '../../lib/constructs/ai-settings';
import { jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { findingArtifactPrefix, securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { actionsOf, arnOf, asArray, hasActionWithPrefix, joined, only } from './template-helpers';
import { synthesized } from './synthesized';
import { artifactObjectGrants, foundationModel, grantsOf, secretPattern, workerFunctionGrants } from './worker-grants';
import { expectInvokedAsynchronously, expectReachedByNoRouteOrEventSource, synthesizedWorker } from './async-worker';
import { expectOnlyStartersKnowAndInvoke, expectStarterOnlyInvokes } from './worker-starters';
import { artifactEnvironment, serviceEnvironment } from './function-environment';

const scanDescription = 'POST /v1/security/scans';
const remediateDescription = 'POST /v1/security/findings/{id}/remediate';
/** The dashboard's Remediate button: the same use case, the same grant. */
const dashboardRemediateDescription = 'POST /dashboard/security/findings/{id}/remediate';
const starterDescriptions = [scanDescription, remediateDescription, dashboardRemediateDescription];
const readDescriptions = [
  'GET /v1/security/scans',
  'GET /v1/security/scans/{id}',
  'GET /v1/security/findings',
  'GET /v1/security/findings/{id}',
  'GET /v1/security/findings/{id}/patch',
];
/** The API's patch and the dashboard's finding page and raw patch: they read patches, the worker writes them. */
const patchReaderDescriptions = [
  'GET /v1/security/findings/{id}/patch',
  'GET /dashboard/security/findings/{id}',
  'GET /dashboard/security/findings/{id}/patch',
];

const defaultOsvApiUrl = 'https://api.osv.dev';

const synthesize = (context: Record<string, unknown> = {}) => {
  const worker = synthesizedWorker(context, securityFunctionDescription, (ids) => ids.securityFunction);
  return {
    ...worker,
    queueId: worker.ids.securityFailures,
    bucketId: worker.ids.artifacts,
    artifactKeyId: worker.ids.artifactKey,
  };
};

type Synthesized = ReturnType<typeof synthesize>;

/** What the security function may do whatever the context: its own logs and traces, the failure queue, the table, the model, findings/* and the artifact key. */
const baseGrantsOf = (s: Synthesized): string[] =>
  [
    ...workerFunctionGrants(s),
    `bedrock:InvokeModel ${foundationModel(defaultBedrockModelId)}`,
    ...artifactObjectGrants(s, 'findings/'),
  ].sort();

describe('security scanning', () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize();
  });

  describe('the security function', () => {
    it('runs 15 minutes with 3008 MB of memory and 10 GiB of /tmp', () => {
      expect(s.properties.Timeout).toBe(900);
      expect(s.properties.MemorySize).toBe(3008);
      expect(s.properties.EphemeralStorage).toEqual({ Size: 10240 });
    });

    it('knows the table, the artifact bucket and its key, the OSV API (https://api.osv.dev by default) and the AI settings, and nothing else', () => {
      expect(findingArtifactPrefix).toBe('findings/');
      expect(s.environment()).toEqual({
        ...serviceEnvironment(s.tableId),
        ...artifactEnvironment(s),
        OSV_API_URL: defaultOsvApiUrl,
        AI_PROVIDERS: 'bedrock',
        BEDROCK_MODEL_ID: defaultBedrockModelId,
      });
    });

    it('takes the OSV API from the osvApiUrl context value (an empty one keeps the default)', () => {
      const custom = synthesize({ osvApiUrl: 'https://osv.mirror.example.test' });
      expect(custom.environment().OSV_API_URL).toBe('https://osv.mirror.example.test');
      expect(synthesize({ osvApiUrl: '' }).environment().OSV_API_URL).toBe(defaultOsvApiUrl);
    });

    it('may use its log group and X-Ray, send to its failure queue, write the table, invoke the configured model, get and put objects under findings/ and use the artifact key; nothing else', () => {
      for (const statement of s.statements()) expect(statement.Effect).toBe('Allow');
      expect(grantsOf(s.statements())).toEqual(baseGrantsOf(s));
      // Spelled out: nothing under workflows/, no Step Functions, no Lambda, no secret, no signing.
      expect(grantsOf(s.statements()).filter((grant) => grant.includes('/workflows/'))).toEqual([]);
      for (const prefix of ['states:', 'lambda:', 'secretsmanager:', 'kms:Sign', 'ses:'])
        expect([prefix, s.statements().filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
      expect(s.lookups.resources()[s.roleId]!.Properties.Policies).toBeUndefined();
      expect(s.lookups.resources()[s.roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    });

    it('is the only role that may write under the findings/ prefix; the patch readers may only get objects there', () => {
      const onFindings = s
        .policyStatements()
        .filter(({ statement }) => asArray(statement.Resource).some((resource) => joined(resource).includes(`/${findingArtifactPrefix}`)));
      const readers = new Set(patchReaderDescriptions.map(s.roleOf));
      expect(readers.has(s.roleId)).toBe(false);
      expect(new Set(onFindings.flatMap(({ roles }) => roles))).toEqual(new Set([s.roleId, ...readers]));
      for (const { statement, roles } of onFindings.filter(({ roles }) => !roles.includes(s.roleId))) {
        expect([roles, actionsOf(statement)]).toEqual([roles, ['s3:GetObject']]);
      }
    });

    it('with repositoryTokenSecret knows it and may read that secret, and that secret only', () => {
      const repository = synthesize({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: 'github.com/acme' });
      expect(repository.environment()).toMatchObject({ REPOSITORY_TOKEN_SECRET: 'repo/token', REPOSITORY_TOKEN_HOSTS: 'github.com/acme' });
      const secrets = repository.statements().filter(hasActionWithPrefix('secretsmanager:'));
      const statement = only(secrets, 'Secrets Manager statement');
      expect(statement.Effect).toBe('Allow');
      expect(statement.Condition).toBeUndefined();
      expect(grantsOf(repository.statements())).toEqual(
        [...baseGrantsOf(repository), `secretsmanager:GetSecretValue ${secretPattern('repo/token')}`].sort(),
      );
    });

    it('with aiProviders=bedrock,anthropic and anthropicApiKeySecret gets those settings and may read that secret too', () => {
      const anthropic = synthesize({
        aiProviders: 'bedrock,anthropic',
        anthropicApiKeySecret: 'my/anthropic',
        repositoryTokenSecret: 'repo/token',
        repositoryTokenHosts: 'github.com/acme',
      });
      expect(anthropic.environment()).toMatchObject({
        AI_PROVIDERS: 'bedrock,anthropic',
        BEDROCK_MODEL_ID: defaultBedrockModelId,
        ANTHROPIC_API_KEY_SECRET: 'my/anthropic',
      });
      expect(grantsOf(anthropic.statements().filter(hasActionWithPrefix('secretsmanager:')))).toEqual(
        [
          `secretsmanager:GetSecretValue ${secretPattern('my/anthropic')}`,
          `secretsmanager:GetSecretValue ${secretPattern('repo/token')}`,
        ].sort(),
      );
    });

    it('with aiProviders=local has no model and no Bedrock permission', () => {
      const local = synthesize({ aiProviders: 'local' });
      expect(local.environment().AI_PROVIDERS).toBe('local');
      expect(local.environment().BEDROCK_MODEL_ID).toBeUndefined();
      expect(local.statements().filter(hasActionWithPrefix('bedrock:'))).toEqual([]);
      expect(grantsOf(local.statements())).toEqual(baseGrantsOf(local).filter((grant) => !grant.startsWith('bedrock:')));
    });

    it('is invoked asynchronously: two retries, events up to 6 hours old, then its failure queue', () => {
      expectInvokedAsynchronously(s, s.queueId, 2);
    });

    it('is reached by no API route, event source or other service principal', () => {
      expectReachedByNoRouteOrEventSource(s);
    });
  });

  describe('its failure queue', () => {
    it('is encrypted with SQS-managed keys, keeps messages 14 days and refuses requests without TLS', () => {
      const queue = s.lookups.resources()[s.queueId]!;
      expect(queue.Type).toBe('AWS::SQS::Queue');
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties.KmsMasterKeyId).toBeUndefined();
      expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      const policy = only(
        Object.values(s.template.findResources('AWS::SQS::QueuePolicy', { Properties: { Queues: [{ Ref: s.queueId }] } })),
        'policy of the failure queue',
      );
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual({
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'sqs:*',
        Resource: arnOf(s.queueId),
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
    });

    it("is sent to by the security function only, and read by the job safety net's function only", () => {
      const jobFailedRole = s.roleOf(jobFailedDescription);
      expect(jobFailedRole).not.toBe(s.roleId);
      const onQueue = s.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${s.queueId}"`));
      expect(new Set(onQueue.flatMap(({ roles }) => roles))).toEqual(new Set([s.roleId, jobFailedRole]));
      const queueArn = `\${${s.queueId}.Arn}`;
      /** A role's grants on this queue (its statements may name other queues too). */
      const grantsOnQueue = (roleId: string) =>
        grantsOf(onQueue.filter(({ roles }) => roles.includes(roleId)).map(({ statement }) => statement)).filter((grant) =>
          grant.split(' ')[1]!.includes(s.queueId),
        );
      expect(grantsOnQueue(s.roleId)).toEqual([
        `sqs:GetQueueAttributes ${queueArn}`,
        `sqs:GetQueueUrl ${queueArn}`,
        `sqs:SendMessage ${queueArn}`,
      ]);
      // The event source of the job safety net: it consumes the queue, it never sends to it.
      expect(grantsOnQueue(jobFailedRole)).toEqual(
        ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'].map(
          (action) => `${action} ${queueArn}`,
        ),
      );
      for (const { roles } of onQueue) expect(roles.length).toBe(1);
      // Its only consumer is that function's event source mapping.
      const mappings = Object.values(
        s.template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: arnOf(s.queueId) } }),
      );
      expect(mappings.map((mapping) => mapping.Properties.FunctionName)).toEqual([
        { Ref: s.lookups.functionIdWithDescription(jobFailedDescription) },
      ]);
    });
  });

  describe('route functions', () => {
    it('the route table marks exactly the scan and remediate routes (API and dashboard) as starting security jobs', () => {
      expect(
        routes
          .filter((route) => route.startsSecurityJobs)
          .map((route) => `${route.method} ${route.path}`)
          .sort(),
      ).toEqual([...starterDescriptions].sort());
    });

    it.each(starterDescriptions.map((description) => [description]))(
      '%s knows the security function and may only invoke it',
      (description) => {
        // Starting a job is all: the job's own permissions stay with the security function.
        expectStarterOnlyInvokes(s, description, 'SECURITY_FUNCTION_NAME', ['s3:', 'kms:', 'bedrock:', 'secretsmanager:', 'states:']);
      },
    );

    it.each(patchReaderDescriptions.map((description) => [description]))(
      '%s may get objects under findings/ and decrypt with the artifact key, nothing else of the bucket or key',
      (description) => {
        expect(s.lookups.environmentOf(description).ARTIFACT_BUCKET).toEqual({ Ref: s.bucketId });
        const grants = grantsOf(
          s.lookups
            .statementsOf(description)
            .filter((statement) => hasActionWithPrefix('s3:')(statement) || hasActionWithPrefix('kms:')(statement)),
        );
        expect(grants).toEqual([`kms:Decrypt \${${s.artifactKeyId}.Arn}`, `s3:GetObject \${${s.bucketId}.Arn}/findings/*`].sort());
      },
    );

    it('no route function but the patch readers reaches the artifact bucket', () => {
      const others = s.descriptions().filter((d) => /^(GET|POST|PATCH|DELETE) \//.test(d) && !patchReaderDescriptions.includes(d));
      for (const description of others) {
        expect([description, s.lookups.statementsOf(description).filter(hasActionWithPrefix('s3:'))]).toEqual([description, []]);
      }
    });

    it('no other function knows the security function or may invoke it, the GET security routes included', () => {
      // Of every role in the stack, only the starters' hold a permission on the security function.
      expectOnlyStartersKnowAndInvoke(s, 'SECURITY_FUNCTION_NAME', starterDescriptions, readDescriptions);
    });
  });
});

describe('cdk-nag AwsSolutions with the security function fully configured', () => {
  it('reports no unacknowledged error or warning', () => {
    expect(
      synthesized({
        repositoryTokenSecret: 'repo/token',
        repositoryTokenHosts: 'github.com/acme',
        aiProviders: 'bedrock,anthropic',
        anthropicApiKeySecret: 'my/anthropic',
        osvApiUrl: 'https://osv.mirror.example.test',
      }).violations,
    ).toEqual([]);
  });
});
