import { routes } from '../../functions/routes/index';
import { defaultBedrockModelId } from '../../lib/constructs/ai-settings';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { actionsOf, only, type Statement, templateLookups } from './template-helpers';
import { idsOf, synthesized } from './synthesized';
import { foundationModel, grantsOf, secretPattern, workerFunctionGrants } from './worker-grants';

const createDescription = 'POST /v1/reviews';
const readDescriptions = ['GET /v1/reviews', 'GET /v1/reviews/{id}', 'GET /v1/reviews/{id}/comments'];

const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
const hasActionWithPrefix = (prefix: string) => (statement: Statement) => actionsOf(statement).some((action) => action.startsWith(prefix));

const synthesize = (context: Record<string, unknown> = {}) => {
  const app = synthesized(context);
  const ids = idsOf(app);
  const template = app.template;
  const lookups = templateLookups(template);
  // Told by construct, not by a property under test.
  const functionId = ids.reviewFunction;
  expect(lookups.functionIdWithDescription(reviewFunctionDescription)).toBe(functionId);
  const fn = lookups.functionWithDescription(reviewFunctionDescription);
  const descriptions = () => Object.values(template.findResources('AWS::Lambda::Function')).map((f) => f.Properties.Description as string);
  const { policyStatements, roleOf } = lookups;
  return {
    template,
    lookups,
    functionId,
    roleId: fn.Properties.Role['Fn::GetAtt'][0] as string,
    app,
    queueId: ids.reviewFailures,
    tableId: ids.table,
    logGroupId: fn.Properties.LoggingConfig.LogGroup.Ref as string,
    properties: fn.Properties,
    environment: () => lookups.environmentOf(reviewFunctionDescription),
    statements: () => lookups.statementsOf(reviewFunctionDescription),
    policyStatements,
    descriptions,
    roleOf,
  };
};

type Synthesized = ReturnType<typeof synthesize>;

/** Its logs and traces, the failure queue, the table and the model: nothing of the artifact bucket, no key, no state machine. */
const baseGrantsOf = (s: Synthesized): string[] => {
  const worker = { logGroupId: s.logGroupId, failureQueueId: s.queueId, tableId: s.tableId };
  return [...workerFunctionGrants(worker), `bedrock:InvokeModel ${foundationModel(defaultBedrockModelId)}`].sort();
};

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
        POWERTOOLS_SERVICE_NAME: 'project-automation-service',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_METRICS_NAMESPACE: 'ProjectAutomationService',
        TABLE_NAME: { Ref: s.tableId },
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
      });
      expect(configured.environment()).toMatchObject({
        REPOSITORY_TOKEN_SECRET: 'repo/token',
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
      const config = only(
        Object.values(s.template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: s.functionId } } })),
        'event invoke config of the review function',
      );
      expect(config.Properties).toEqual({
        FunctionName: { Ref: s.functionId },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 21600,
        DestinationConfig: { OnFailure: { Destination: arnOf(s.queueId) } },
      });
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
      expect(s.lookups.environmentOf(createDescription)).toMatchObject({
        REVIEW_FUNCTION_NAME: { Ref: s.functionId },
        AI_PROVIDERS: 'bedrock',
      });
      const lambda = s.lookups.statementsOf(createDescription).filter(hasActionWithPrefix('lambda:'));
      expect(lambda).toEqual([{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: arnOf(s.functionId) }]);
      for (const prefix of ['s3:', 'kms:', 'bedrock:', 'secretsmanager:', 'states:'])
        expect([prefix, s.lookups.statementsOf(createDescription).filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
    });

    it('no other function knows the review function or may invoke it, the GET review routes included', () => {
      for (const description of readDescriptions) expect(s.descriptions()).toContain(description);
      for (const description of s.descriptions().filter((d) => d !== createDescription)) {
        expect([description, s.lookups.environmentOf(description).REVIEW_FUNCTION_NAME]).toEqual([description, undefined]);
      }
      const onFunction = s.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${s.functionId}"`));
      expect(onFunction.flatMap(({ roles }) => roles)).toEqual([s.roleOf(createDescription)]);
    });
  });
});
