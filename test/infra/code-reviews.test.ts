import { routes } from '../../functions/routes/index';
import { defaultBedrockModelId } from '../../lib/constructs/ai-settings';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { arnOf, hasActionWithPrefix } from './template-helpers';
import { foundationModel, grantsOf, secretPattern, workerFunctionGrants } from './worker-grants';
import { expectInvokedAsynchronously, synthesizedWorker } from './async-worker';
import { expectOnlyStartersKnowAndInvoke, expectStarterOnlyInvokes } from './worker-starters';
import { serviceEnvironment } from './function-environment';

const createDescription = 'POST /v1/reviews';
const readDescriptions = ['GET /v1/reviews', 'GET /v1/reviews/{id}', 'GET /v1/reviews/{id}/comments'];

const synthesize = (context: Record<string, unknown> = {}) => {
  const worker = synthesizedWorker(context, reviewFunctionDescription, (ids) => ids.reviewFunction);
  return { ...worker, queueId: worker.ids.reviewFailures };
};

type Synthesized = ReturnType<typeof synthesize>;

/** Its logs and traces, the failure queue, the table and the model: nothing of the artifact bucket, no key, no state machine. */
const baseGrantsOf = (s: Synthesized): string[] =>
  [...workerFunctionGrants(s), `bedrock:InvokeModel ${foundationModel(defaultBedrockModelId)}`].sort();

describe('code reviews', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthesize();
  });

  describe('the review function', () => {
    it('runs 15 minutes with 3008 MB of memory and 10 GiB of /tmp, TypeScript and its lib files shipped for the type check', () => {
      expect(s.properties.Timeout).toBe(900);
      expect(s.properties.MemorySize).toBe(3008);
      expect(s.properties.EphemeralStorage).toEqual({ Size: 10240 });
    });

    it('knows the table and the AI settings, and nothing else', () => {
      expect(s.environment()).toEqual({
        ...serviceEnvironment(s.tableId),
        AI_PROVIDERS: 'bedrock',
        BEDROCK_MODEL_ID: defaultBedrockModelId,
      });
    });

    it('may use its log group and X-Ray, send to its failure queue, write the table and invoke the configured model; nothing else', () => {
      for (const statement of s.statements()) expect(statement.Effect).toBe('Allow');
      expect(grantsOf(s.statements())).toEqual(baseGrantsOf(s));
      for (const prefix of ['s3:', 'kms:', 'states:', 'lambda:', 'secretsmanager:', 'ses:'])
        expect([prefix, s.statements().filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
    });

    it('with repositoryTokenSecret and an Anthropic key knows both and may read those two secrets only', () => {
      // The context of the workflow orchestration's test with both secrets: one synthesis for both.
      const configured = synthesize({
        aiProviders: 'bedrock,anthropic',
        anthropicApiKeySecret: 'my/anthropic',
        repositoryTokenSecret: 'repo/token',
        repositoryTokenHosts: 'github.com/acme',
      });
      expect(configured.environment()).toMatchObject({
        REPOSITORY_TOKEN_SECRET: 'repo/token',
        REPOSITORY_TOKEN_HOSTS: 'github.com/acme',
        AI_PROVIDERS: 'bedrock,anthropic',
        ANTHROPIC_API_KEY_SECRET: 'my/anthropic',
      });
      expect(grantsOf(configured.statements().filter(hasActionWithPrefix('secretsmanager:')))).toEqual(
        [
          `secretsmanager:GetSecretValue ${secretPattern('my/anthropic')}`,
          `secretsmanager:GetSecretValue ${secretPattern('repo/token')}`,
        ].sort(),
      );
    });

    it('is invoked asynchronously: two retries, events up to 6 hours old, then its failure queue', () => {
      expectInvokedAsynchronously(s, s.queueId, 2);
    });
  });

  describe('its stack', () => {
    it('is the Reviews domain stack, with the review routes and nothing of the artifact bucket, the keys or the state machines', () => {
      const stackName = s.app.domainStacks.Reviews as string;
      expect(stackName).toBe('ProjectAutomationService-Reviews');
      expect(s.app.stackOf(s.functionId)).toBe(stackName);
      const stack = s.app.stack(stackName);
      const inStack = Object.values(stack.findResources('AWS::Lambda::Function')).map((fn) => fn.Properties.Description as string);
      expect(inStack.sort()).toEqual([createDescription, ...readDescriptions, reviewFunctionDescription].sort());
      const imports = JSON.stringify(s.app.templates[stackName]).match(/"Fn::ImportValue":"[^"]+"/g) ?? [];
      expect(new Set(imports.map((name) => name.split(':').pop()!.replace('"', '')))).toEqual(
        new Set(['TableName', 'TableArn', 'ReviewFailuresArn', 'ApiId', 'AlarmTopicArn', 'ApiLogGroupName']),
      );
    });

    it('passes cdk-nag with nothing unacknowledged', () => {
      expect(s.app.violations).toEqual([]);
    });
  });

  describe('its failure queue', () => {
    it("is encrypted, keeps messages 14 days, and is read by the job safety net's function only", () => {
      const queue = s.lookups.resources()[s.queueId]!;
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
      expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
      const mappings = Object.values(
        s.template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: arnOf(s.queueId) } }),
      );
      expect(mappings.map((mapping) => mapping.Properties.FunctionName)).toEqual([
        { Ref: s.lookups.functionIdWithDescription(jobFailedDescription) },
      ]);
      const onQueue = s.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${s.queueId}"`));
      expect(new Set(onQueue.flatMap(({ roles }) => roles))).toEqual(new Set([s.roleId, s.roleOf(jobFailedDescription)]));
    });
  });

  describe('route functions', () => {
    it('the route table marks exactly POST /v1/reviews as starting reviews', () => {
      expect(routes.filter((route) => route.startsReviewJobs).map((route) => `${route.method} ${route.path}`)).toEqual([createDescription]);
    });

    it('POST /v1/reviews knows the review function and the providers offered, and may only invoke it', () => {
      expect(s.lookups.environmentOf(createDescription).AI_PROVIDERS).toBe('bedrock');
      expectStarterOnlyInvokes(s, createDescription, 'REVIEW_FUNCTION_NAME', ['s3:', 'kms:', 'bedrock:', 'secretsmanager:', 'states:']);
    });

    it('no other function knows the review function or may invoke it, the GET review routes included', () => {
      const onFunction = expectOnlyStartersKnowAndInvoke(s, 'REVIEW_FUNCTION_NAME', [createDescription], readDescriptions);
      expect(onFunction.flatMap(({ roles }) => roles)).toEqual([s.roleOf(createDescription)]);
    });
  });
});
