import { Match, type Template } from 'aws-cdk-lib/assertions';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { tableSchema } from '../../functions/adapters/dynamodb/table-schema';
import { corsSettings } from '../../functions/http/cors';
import { routeTable } from '../../functions/routes/index';
import {
  secondStreamReaderDescription,
  secondStreamReaderTimeout,
  dispatcherDescription,
  dispatcherTimeout,
  fanOutDescription,
  fanOutTimeout,
} from '../../lib/constructs/webhook-delivery';
import { stageFunctionDescriptions } from '../../lib/constructs/workflow-orchestration';
import { deploymentFunctionDescriptions } from '../../lib/constructs/deployment-orchestration';
import { executionEndedDescription, jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { testsFunctionDescription } from '../../lib/constructs/test-running';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { actionsOf, asArray, isDynamoStatement, only, type Statement, templateLookups } from './template-helpers';
import { synthesized } from './synthesized';

const fallbackDescription = '$default: 404 or 405 in the service envelope';
const routeDescription = (route: (typeof routeTable)[number]): string => `${route.method} ${route.path}`;

const testWebhookRouteTimeout = (): number | undefined => routeTable.find((r) => r.operationId === 'testWebhook')?.timeoutSeconds;

describe('the service app', () => {
  let template: Template;

  let lookups: ReturnType<typeof templateLookups>;

  beforeAll(() => {
    template = synthesized().template;
    lookups = templateLookups(template);
  });

  const functionWithDescription = (description: string) => lookups.functionWithDescription(description);
  const statementsOf = (description: string) => lookups.statementsOf(description);

  describe('functions', () => {
    it('has exactly one function per route, the fallback, the three webhook workers, the workflow and deployment step functions, the two safety net functions, the security, tests and review functions, and nothing else', () => {
      const functions = Object.values(template.findResources('AWS::Lambda::Function'));
      const stageFunctions = [
        ...Object.values(stageFunctionDescriptions),
        ...Object.values(deploymentFunctionDescriptions),
        executionEndedDescription,
        jobFailedDescription,
        securityFunctionDescription,
        testsFunctionDescription,
        reviewFunctionDescription,
      ];
      expect(new Set(stageFunctions).size).toBe(stageFunctions.length);
      expect(functions).toHaveLength(routeTable.length + 4 + stageFunctions.length);
      expect(functions.map((fn) => fn.Properties.Description).sort()).toEqual(
        [
          ...routeTable.map(routeDescription),
          fallbackDescription,
          dispatcherDescription,
          fanOutDescription,
          secondStreamReaderDescription,
          ...stageFunctions,
        ].sort(),
      );
    });

    it("gives every route the timeout its route table row asks for (10 s by default), the dispatcher 30 s, the fan-out 60 s and the stream's second reader 5 minutes", () => {
      const expected = new Map<string, number>([
        ...routeTable.map((route): [string, number] => [routeDescription(route), route.timeoutSeconds ?? 10]),
        [fallbackDescription, 10],
        [dispatcherDescription, dispatcherTimeout.toSeconds()],
        [fanOutDescription, fanOutTimeout.toSeconds()],
        [secondStreamReaderDescription, secondStreamReaderTimeout.toSeconds()],
      ]);
      for (const [description, seconds] of expected)
        expect([description, functionWithDescription(description).Properties.Timeout]).toEqual([description, seconds]);
      expect(testWebhookRouteTimeout()).toBe(20);
      expect(dispatcherTimeout.toSeconds()).toBe(30);
      // What API Gateway waits for an HTTP API integration at most.
      for (const route of routeTable) expect(functionWithDescription(routeDescription(route)).Properties.Timeout).toBeLessThan(30);
    });

    it('sets no LOCAL_* variable on any function: those belong to the local runtime', () => {
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
        expect(Object.keys(fn.Properties.Environment.Variables).filter((name) => name.startsWith('LOCAL_'))).toEqual([]);
      }
    });

    it('runs every function on nodejs22.x, arm64, with active tracing and its own log group', () => {
      expect(lookups.functionWithDescription(securityFunctionDescription).Properties.MemorySize).toBe(3008);
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          MemorySize: expect.any(Number),
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        });
        expect(fn.Properties.FunctionName).toBeUndefined();
        // 1 GiB for the API and its workers; the stages that hold a repository in memory get 2 GiB;
        // the security and review functions (repository, ESLint and TypeScript) get 3008 MB.
        if ([securityFunctionDescription, reviewFunctionDescription].includes(fn.Properties.Description))
          expect(fn.Properties.MemorySize).toBe(3008);
        else
          expect([fn.Properties.Description, [1024, 2048].includes(fn.Properties.MemorySize)]).toEqual([fn.Properties.Description, true]);
        expect(fn.Properties.Environment.Variables).toMatchObject({ POWERTOOLS_LOG_LEVEL: 'INFO' });
        expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      }
    });

    it('hands context repositoryPrivateHosts to the functions as REPOSITORY_PRIVATE_HOSTS, and nothing without it', () => {
      const named = synthesized({ repositoryPrivateHosts: 'git.corp.example, gitlab.internal' }).template;
      const functions = Object.values(named.findResources('AWS::Lambda::Function'));
      for (const fn of functions)
        expect(fn.Properties.Environment.Variables.REPOSITORY_PRIVATE_HOSTS).toBe('git.corp.example,gitlab.internal');
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function')))
        expect(fn.Properties.Environment.Variables.REPOSITORY_PRIVATE_HOSTS).toBeUndefined();
    });

    it('gives no role an AWS managed policy', () => {
      for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      }
    });
  });

  describe('HTTP API', () => {
    it('has one route per route of the table and a $default route', () => {
      const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey);
      expect(routeKeys.sort()).toEqual([...routeTable.map(routeDescription), '$default'].sort());
    });

    it('sends each route to its own function and $default to the fallback', () => {
      const integrationOf = (routeKey: string) => {
        const route = only(
          Object.values(template.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } })),
          routeKey,
        );
        const integrationId = (route.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
        return template.toJSON().Resources[integrationId.Ref].Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      };
      const functionIdOf = (description: string) => lookups.functionIdWithDescription(description);

      for (const route of routeTable) expect(integrationOf(routeDescription(route))).toBe(functionIdOf(routeDescription(route)));
      expect(integrationOf('$default')).toBe(functionIdOf(fallbackDescription));
    });

    it('answers CORS preflight from corsSettings', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
        ProtocolType: 'HTTP',
        CorsConfiguration: {
          AllowOrigins: [...corsSettings.allowOrigins],
          AllowMethods: [...corsSettings.allowMethods],
          AllowHeaders: [...corsSettings.allowHeaders],
          ExposeHeaders: [...corsSettings.exposeHeaders],
          MaxAge: corsSettings.maxAgeSeconds,
        },
      });
    });

    it('logs every request of the default stage as JSON to a log group with a retention, and throttles', () => {
      const stage = only(Object.values(template.findResources('AWS::ApiGatewayV2::Stage')), 'stage');
      expect(stage.Properties).toMatchObject({
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
      });
      const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
      expect(Object.keys(format)).toEqual(
        expect.arrayContaining([
          'requestId',
          'ip',
          'requestTime',
          'httpMethod',
          'routeKey',
          'status',
          'protocol',
          'responseLength',
          'integrationErrorMessage',
        ]),
      );
      expect(format.requestId).toBe('$context.requestId');

      const logGroupId: string = stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
      expect(template.toJSON().Resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    });
  });

  describe('table', () => {
    it('is built from tableSchema: on-demand, PITR, deletion protection, retained, TTL, stream and GSIs', () => {
      template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
      template.resourceCountIs('AWS::DynamoDB::Table', 0);
      template.hasResource('AWS::DynamoDB::GlobalTable', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
        Properties: Match.objectLike({
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [
            { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
            { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
          ],
          TimeToLiveSpecification: { AttributeName: tableSchema.timeToLiveAttribute, Enabled: true },
          StreamSpecification: { StreamViewType: tableSchema.streamView },
          GlobalSecondaryIndexes: tableSchema.globalIndexes.map((index) => ({
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          })),
          Replicas: [
            Match.objectLike({
              DeletionProtectionEnabled: true,
              PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            }),
          ],
        }),
      });
    });
  });

  describe('least privilege', () => {
    const writeOnlyActions = ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'];
    const credentialCondition = {
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern, keys.rateLimitLeadingKeyPattern],
      },
    };

    it.each(routeTable.filter((route) => route.tableAccess === 'read').map((route) => [routeDescription(route)]))(
      '%s reads, and updates only credential and OAuth grant items (last use) and rate-limit buckets',
      (description) => {
        const statements = statementsOf(description).filter(isDynamoStatement);
        const actions = statements.flatMap(actionsOf);
        expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
        for (const action of writeOnlyActions) expect(actions).not.toContain(action);
        for (const statement of statements.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'))) {
          expect(statement.Condition).toEqual(credentialCondition);
        }
        expect(functionWithDescription(description).Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: expect.any(String) });
      },
    );

    it.each(routeTable.filter((route) => route.tableAccess === 'session').map((route) => [routeDescription(route)]))(
      '%s reads, and updates only session items (last use) besides what every reader updates',
      (description) => {
        const statements = statementsOf(description).filter(isDynamoStatement);
        const actions = statements.flatMap(actionsOf);
        expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
        for (const action of writeOnlyActions) expect(actions).not.toContain(action);
        const updates = statements.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'));
        expect(updates.map((s) => s.Condition)).toEqual(
          expect.arrayContaining([
            credentialCondition,
            { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.sessionLeadingKeyPattern] } },
          ]),
        );
        expect(updates).toHaveLength(2);
      },
    );

    it.each(routeTable.filter((route) => route.tableAccess === 'write').map((route) => [routeDescription(route)]))(
      '%s may write items of the table, not of its indexes',
      (description) => {
        const statements = statementsOf(description).filter(isDynamoStatement);
        const unconditionedWrites = statements.filter((s) => !s.Condition && actionsOf(s).includes('dynamodb:PutItem'));
        const write = only(unconditionedWrites, 'write statement');
        expect(actionsOf(write)).toEqual(
          expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem']),
        );
        expect(asArray(write.Resource)).toEqual([{ 'Fn::GetAtt': [expect.any(String), 'Arn'] }]);
      },
    );

    it.each([
      ...routeTable.filter((route) => route.tableAccess === 'none').map((route) => [routeDescription(route)]),
      [fallbackDescription],
    ])('%s has no DynamoDB permission and no table', (description) => {
      expect(statementsOf(description).filter(isDynamoStatement)).toEqual([]);
      expect(functionWithDescription(description).Properties.Environment.Variables.TABLE_NAME).toBeUndefined();
    });

    it('grants no dynamodb:* and no DynamoDB action on every resource', () => {
      const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
        (policy) => policy.Properties.PolicyDocument.Statement as Statement[],
      );
      for (const statement of statements.filter(isDynamoStatement)) {
        expect(actionsOf(statement).filter((action) => action.includes('*'))).toEqual([]);
        expect(asArray(statement.Resource)).not.toContain('*');
      }
    });
  });

  it('outputs the API URL and the table name', () => {
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.anyValue(), 'ApiEndpoint'] }, '/v1']] } });
    template.hasOutput('TableName', { Value: { Ref: Match.anyValue() } });
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged error or warning in any stack', () => {
    expect(synthesized().violations).toEqual([]);
  });
});
