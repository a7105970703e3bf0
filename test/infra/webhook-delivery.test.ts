import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { routeTable as routes } from '../../functions/routes/index';
import { executionEndedDescription, jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { testsFunctionDescription } from '../../lib/constructs/test-running';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { secondStreamReaderDescription, dispatcherDescription, fanOutDescription } from '../../lib/constructs/webhook-delivery';
import { buildApp, defaultNotificationSender } from '../../lib/app';
import { synthesized } from './synthesized';
import {
  actionsOf,
  asArray,
  isDynamoStatement,
  isSesStatement,
  isSqsStatement,
  joined,
  newApp,
  only,
  type Statement,
  templateLookups,
} from './template-helpers';

const routeDescription = (route: (typeof routes)[number]): string => `${route.method} ${route.path}`;
const fallbackDescription = '$default: 404 or 405 in the service envelope';
const sendingRoutes = routes.filter((route) => route.sendsDeliveries);
const otherRoutes = routes.filter((route) => !route.sendsDeliveries);

describe('webhook delivery', () => {
  let template: Template;
  let lookups: ReturnType<typeof templateLookups>;
  /** Logical ids of the three queues, told apart by their roles. */
  let queueId: string;
  let deadLetterQueueId: string;
  let fanOutFailuresId: string;

  beforeAll(() => {
    template = synthesized().template;
    lookups = templateLookups(template);
    const queues = template.findResources('AWS::SQS::Queue');
    // The queue the dispatcher reads that has a redrive policy (it reads that policy's target too).
    queueId = only(
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))
        .filter((mapping) => mapping.Properties.FunctionName.Ref === lookups.functionIdWithDescription(dispatcherDescription))
        .map((mapping) => mapping.Properties.EventSourceArn['Fn::GetAtt'][0] as string)
        .filter((id) => queues[id]!.Properties.RedrivePolicy !== undefined),
      "dispatcher's queue",
    );
    deadLetterQueueId = queues[queueId]!.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
    const mapping = only(
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { StartingPosition: 'TRIM_HORIZON' } })).filter(
        (candidate) => candidate.Properties.FunctionName.Ref === lookups.functionIdWithDescription(fanOutDescription),
      ),
      "fan-out's stream mapping",
    );
    fanOutFailuresId = mapping.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
  });

  const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
  const queueProperties = (logicalId: string) => lookups.resources()[logicalId]!.Properties;
  const sqsStatementsOf = (description: string): Statement[] => lookups.statementsOf(description).filter(isSqsStatement);
  /** The queue an asynchronous worker's failed invocations go to, told by its event invoke config. */
  const onFailureQueueOf = (description: string): string =>
    only(
      Object.values(
        template.findResources('AWS::Lambda::EventInvokeConfig', {
          Properties: { FunctionName: { Ref: lookups.functionIdWithDescription(description) } },
        }),
      ),
      `event invoke config of ${description}`,
    ).Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];

  describe('queues', () => {
    it("has the delivery queue, its DLQ and the fan-out failure queue, three different queues (the stack has five more: the execution safety net's, the security, tests and review functions' failure queues, and their dead-letter queue)", () => {
      template.resourceCountIs('AWS::SQS::Queue', 8);
      expect(new Set([queueId, deadLetterQueueId, fanOutFailuresId]).size).toBe(3);
      // The three others, told by what uses them: the safety net's rule target DLQ, the security and tests functions' on-failure destinations.
      const safetyNetRule = only(Object.values(template.findResources('AWS::Events::Rule')), 'execution safety net rule');
      const safetyNetQueueId: string = only(
        safetyNetRule.Properties.Targets as { DeadLetterConfig: { Arn: { 'Fn::GetAtt': [string, string] } } }[],
        'rule target',
      ).DeadLetterConfig.Arn['Fn::GetAtt'][0];
      // One event invoke config per asynchronous worker, and none else.
      const invokeConfigs = template.findResources('AWS::Lambda::EventInvokeConfig');
      expect(
        Object.values(invokeConfigs)
          .map((config) => config.Properties.FunctionName.Ref as string)
          .sort(),
      ).toEqual(
        [
          lookups.functionIdWithDescription(securityFunctionDescription),
          lookups.functionIdWithDescription(testsFunctionDescription),
          lookups.functionIdWithDescription(reviewFunctionDescription),
          lookups.functionIdWithDescription(executionEndedDescription),
        ].sort(),
      );
      const securityFailuresId = onFailureQueueOf(securityFunctionDescription);
      const testsFailuresId = onFailureQueueOf(testsFunctionDescription);
      const reviewFailuresId = onFailureQueueOf(reviewFunctionDescription);
      const jobDeadLetters = queueProperties(securityFailuresId).RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
      const all = [
        queueId,
        deadLetterQueueId,
        fanOutFailuresId,
        safetyNetQueueId,
        securityFailuresId,
        testsFailuresId,
        reviewFailuresId,
        jobDeadLetters,
      ];
      expect(new Set(all).size).toBe(8);
      expect(new Set(Object.keys(template.findResources('AWS::SQS::Queue')))).toEqual(new Set(all));
    });

    it('moves a message to the DLQ after 5 receives, and hides a received message 6× the dispatcher timeout', () => {
      const queue = queueProperties(queueId);
      expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(deadLetterQueueId), maxReceiveCount: 5 });
      const dispatcherTimeout: number = lookups.functionWithDescription(dispatcherDescription).Properties.Timeout;
      expect(dispatcherTimeout).toBe(30);
      expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * dispatcherTimeout);
      expect(queue.VisibilityTimeout).toBe(180);
    });

    it('keeps what lands in either dead-letter queue for 14 days', () => {
      expect(queueProperties(deadLetterQueueId).MessageRetentionPeriod).toBe(14 * 24 * 3600);
      expect(queueProperties(fanOutFailuresId).MessageRetentionPeriod).toBe(14 * 24 * 3600);
    });

    it('hides a dead letter the dispatcher received 6× its timeout too, as the delivery queue does (it reads both)', () => {
      expect(queueProperties(deadLetterQueueId).VisibilityTimeout).toBe(queueProperties(queueId).VisibilityTimeout);
      expect(queueProperties(deadLetterQueueId).RedrivePolicy).toBeUndefined();
    });

    it('encrypts every queue with SQS-managed keys and refuses requests without TLS', () => {
      const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
      for (const id of [queueId, deadLetterQueueId, fanOutFailuresId]) {
        expect(queueProperties(id).SqsManagedSseEnabled).toBe(true);
        expect(queueProperties(id).KmsMasterKeyId).toBeUndefined();
        const policy = only(
          policies.filter((p) => (p.Properties.Queues as unknown[]).some((q) => JSON.stringify(q) === JSON.stringify({ Ref: id }))),
          `policy of ${id}`,
        );
        expect(policy.Properties.PolicyDocument.Statement).toContainEqual({
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'sqs:*',
          Resource: arnOf(id),
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        });
      }
    });
  });

  describe('event sources', () => {
    it("has exactly seven mappings: the delivery queue and its DLQ (dispatcher), the table stream (fan-out, the second reader: no third reader of a shard), and the security, tests and review functions' failure queues (job safety net)", () => {
      template.resourceCountIs('AWS::Lambda::EventSourceMapping', 7);
      const tableId = only(Object.keys(template.findResources('AWS::DynamoDB::GlobalTable')), 'table');
      const sources = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map((mapping) => [
        mapping.Properties.FunctionName.Ref,
        JSON.stringify(mapping.Properties.EventSourceArn),
      ]);
      const byFunction = (description: string) => lookups.functionIdWithDescription(description);
      expect(sources.sort()).toEqual(
        [
          [byFunction(dispatcherDescription), JSON.stringify(arnOf(queueId))],
          [byFunction(dispatcherDescription), JSON.stringify(arnOf(deadLetterQueueId))],
          [byFunction(fanOutDescription), JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] })],
          [byFunction(secondStreamReaderDescription), JSON.stringify({ 'Fn::GetAtt': [tableId, 'StreamArn'] })],
          [byFunction(jobFailedDescription), JSON.stringify(arnOf(onFailureQueueOf(securityFunctionDescription)))],
          [byFunction(jobFailedDescription), JSON.stringify(arnOf(onFailureQueueOf(testsFunctionDescription)))],
          [byFunction(jobFailedDescription), JSON.stringify(arnOf(onFailureQueueOf(reviewFunctionDescription)))],
        ].sort(),
      );
    });

    it('hands the dispatcher batches of 10 from the delivery queue, at most 50 at once, and lets it fail single messages', () => {
      const mapping = only(
        Object.values(template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: arnOf(queueId) } })),
        'queue mapping',
      );
      expect(mapping.Properties).toMatchObject({
        FunctionName: { Ref: lookups.functionIdWithDescription(dispatcherDescription) },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        // Bounded, so a burst of events leaves the API its concurrency.
        ScalingConfig: { MaximumConcurrency: 50 },
      });
      // No batching window: a lone message is not held back before its first attempt.
      expect(mapping.Properties.MaximumBatchingWindowInSeconds ?? 0).toBe(0);
      expect(mapping.Properties.Enabled).not.toBe(false);
    });

    it('hands the dispatcher the dead letters too, batches of 10, two at once, failing single messages, and tells it which queue they are from', () => {
      const mapping = only(
        Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: arnOf(deadLetterQueueId) } }),
        ),
        'dead-letter queue mapping',
      );
      expect(mapping.Properties).toMatchObject({
        FunctionName: { Ref: lookups.functionIdWithDescription(dispatcherDescription) },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 2 },
      });
      expect(mapping.Properties.Enabled).not.toBe(false);
      expect(lookups.environmentOf(dispatcherDescription).DELIVERY_DEAD_LETTER_QUEUE_ARN).toEqual(arnOf(deadLetterQueueId));
    });

    /** The mapping of the table's stream to the function of this description. */
    const streamMappingOf = (description: string) => {
      const tableId = only(Object.keys(template.findResources('AWS::DynamoDB::GlobalTable')), 'table');
      return only(
        Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping', {
            Properties: {
              EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
              FunctionName: { Ref: lookups.functionIdWithDescription(description) },
            },
          }),
        ),
        `stream mapping of ${description}`,
      );
    };

    it('feeds the fan-out from the start of the table stream, INSERTs of event items only, bisecting and retrying, with a failure destination', () => {
      const mapping = streamMappingOf(fanOutDescription);
      expect(mapping.Properties).toMatchObject({
        FunctionName: { Ref: lookups.functionIdWithDescription(fanOutDescription) },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 10,
        DestinationConfig: { OnFailure: { Destination: arnOf(fanOutFailuresId) } },
      });
      const filters = mapping.Properties.FilterCriteria.Filters as { Pattern: string }[];
      expect(filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [entityTypes.event] } } } },
      ]);
      expect(entityTypes.event).toBe('event');
    });

    it('feeds the second reader from the same stream, REMOVEs of webhooks and INSERTs of password-reset requests only, bisecting and retrying into the same failure destination', () => {
      const mapping = streamMappingOf(secondStreamReaderDescription);
      expect(mapping.Properties).toMatchObject({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 10,
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        MaximumRetryAttempts: 10,
        DestinationConfig: { OnFailure: { Destination: arnOf(fanOutFailuresId) } },
      });
      const filters = mapping.Properties.FilterCriteria.Filters as { Pattern: string }[];
      expect(filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([
        { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [entityTypes.webhook] } } } },
        { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [entityTypes.passwordResetRequest] } } } },
      ]);
      expect(entityTypes.webhook).toBe('webhook');
      expect(entityTypes.passwordResetRequest).toBe('password_reset_request');
    });
  });

  describe('dispatcher', () => {
    it('knows the queue and the sender, and reads and writes the table', () => {
      expect(lookups.environmentOf(dispatcherDescription)).toMatchObject({
        DELIVERY_QUEUE_URL: { Ref: queueId },
        NOTIFICATION_SENDER: defaultNotificationSender,
        TABLE_NAME: { Ref: expect.any(String) },
      });
      const actions = lookups.statementsOf(dispatcherDescription).filter(isDynamoStatement).flatMap(actionsOf);
      expect(actions).toEqual(
        expect.arrayContaining([
          'dynamodb:GetItem',
          'dynamodb:Query',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:ConditionCheckItem',
        ]),
      );
    });

    it('may send to, receive from and delete in the delivery queue, only receive from and delete in its DLQ, and touches no other queue', () => {
      const statements = sqsStatementsOf(dispatcherDescription);
      const actionsOn = (id: string) =>
        statements.filter((statement) => JSON.stringify(asArray(statement.Resource)) === JSON.stringify([arnOf(id)])).flatMap(actionsOf);
      for (const statement of statements)
        expect([[arnOf(queueId)], [arnOf(deadLetterQueueId)]]).toContainEqual(asArray(statement.Resource));
      expect(actionsOn(queueId)).toEqual(
        expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      // A dead letter is settled, never sent back where it came from.
      expect(actionsOn(deadLetterQueueId)).toEqual(
        expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
      );
      expect(actionsOn(deadLetterQueueId)).not.toContain('sqs:SendMessage');
      expect(statements.flatMap(actionsOf).filter((action) => action.includes('*'))).toEqual([]);
    });

    it('may send e-mail from the SES identity of the sender and nothing else of SES', () => {
      const statement = only(lookups.statementsOf(dispatcherDescription).filter(isSesStatement), 'SES statement');
      expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
      expect(asArray(statement.Resource).map(joined)).toEqual([
        `arn:\${AWS::Partition}:ses:\${AWS::Region}:\${AWS::AccountId}:identity/${defaultNotificationSender}`,
      ]);
    });

    it('takes the sender from the notificationSender context value', () => {
      const sender = 'alerts@mail.acme.test';
      const lookupsWithSender = templateLookups(synthesized({ notificationSender: sender }).template);
      expect(lookupsWithSender.environmentOf(dispatcherDescription).NOTIFICATION_SENDER).toBe(sender);
      const statement = only(lookupsWithSender.statementsOf(dispatcherDescription).filter(isSesStatement), 'SES statement');
      expect(asArray(statement.Resource).map(joined)).toEqual([
        `arn:\${AWS::Partition}:ses:\${AWS::Region}:\${AWS::AccountId}:identity/${sender}`,
      ]);
    });

    it('refuses a sender that is not a bare address (it names an SES identity)', () => {
      expect(() => buildApp(newApp({ notificationSender: 'Service <alerts@acme.test>' }))).toThrow(/bare e-mail address/);
    });
  });

  describe('fan-out', () => {
    it('knows the queue, may only send to it, and records failed batches in the failure queue', () => {
      const environment = lookups.environmentOf(fanOutDescription);
      expect(environment).toMatchObject({ DELIVERY_QUEUE_URL: { Ref: queueId }, TABLE_NAME: { Ref: expect.any(String) } });
      expect(environment.NOTIFICATION_SENDER).toBeUndefined();

      const statements = sqsStatementsOf(fanOutDescription);
      const onQueue = statements.filter((s) => JSON.stringify(asArray(s.Resource)) === JSON.stringify([arnOf(queueId)]));
      expect(onQueue.flatMap(actionsOf)).toEqual(['sqs:SendMessage']);
      const onFailures = statements.filter((s) => JSON.stringify(asArray(s.Resource)) === JSON.stringify([arnOf(fanOutFailuresId)]));
      expect(onFailures.flatMap(actionsOf)).toContain('sqs:SendMessage');
      expect(onQueue.length + onFailures.length).toBe(statements.length);
    });

    it('reads the table stream, reads and writes the table (deliveries and counters), and has no SES permission', () => {
      const statements = lookups.statementsOf(fanOutDescription).filter(isDynamoStatement);
      const stream = statements.filter((s) => actionsOf(s).includes('dynamodb:GetRecords'));
      expect(asArray(only(stream, 'stream statement').Resource)).toEqual([{ 'Fn::GetAtt': [expect.any(String), 'StreamArn'] }]);
      expect(statements.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
      expect(lookups.statementsOf(fanOutDescription).filter(isSesStatement)).toEqual([]);
    });
  });

  describe("the stream's second reader", () => {
    it('reads the table stream, reads, writes and deletes in the table, and has no queue URL and no queue but its failure destination', () => {
      const statements = lookups.statementsOf(secondStreamReaderDescription).filter(isDynamoStatement);
      const stream = statements.filter((s) => actionsOf(s).includes('dynamodb:GetRecords'));
      expect(asArray(only(stream, 'stream statement').Resource)).toEqual([{ 'Fn::GetAtt': [expect.any(String), 'StreamArn'] }]);
      expect(statements.flatMap(actionsOf)).toEqual(
        expect.arrayContaining([
          'dynamodb:GetItem',
          'dynamodb:Query',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:ConditionCheckItem',
        ]),
      );
      expect(lookups.environmentOf(secondStreamReaderDescription).DELIVERY_QUEUE_URL).toBeUndefined();
      const queueStatements = sqsStatementsOf(secondStreamReaderDescription);
      expect(queueStatements.flatMap(actionsOf)).toContain('sqs:SendMessage');
      for (const statement of queueStatements) expect(asArray(statement.Resource)).toEqual([arnOf(fanOutFailuresId)]);
      expect(lookups.functionWithDescription(secondStreamReaderDescription).Properties.Timeout).toBe(300);
    });

    it('may send e-mail (password resets) from the SES identity of the sender and nothing else of SES, and knows the sender', () => {
      const statement = only(lookups.statementsOf(secondStreamReaderDescription).filter(isSesStatement), 'SES statement');
      expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
      expect(asArray(statement.Resource).map(joined)).toEqual([
        `arn:\${AWS::Partition}:ses:\${AWS::Region}:\${AWS::AccountId}:identity/${defaultNotificationSender}`,
      ]);
      expect(lookups.environmentOf(secondStreamReaderDescription).NOTIFICATION_SENDER).toBe(defaultNotificationSender);
    });

    it('alarms on any error, as the dispatcher and the fan-out do (a reset e-mail late or lost)', () => {
      const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter(
        (alarm) =>
          alarm.Properties.MetricName === 'Errors' &&
          JSON.stringify(alarm.Properties.Dimensions) ===
            JSON.stringify([{ Name: 'FunctionName', Value: { Ref: lookups.functionIdWithDescription(secondStreamReaderDescription) } }]),
      );
      expect(only(alarms, 'errors alarm').Properties).toMatchObject({ Threshold: 1, Statistic: 'Sum', Period: 300 });
    });
  });

  describe('route functions', () => {
    it("has the redeliver and recover routes (the API's and the dashboard's) as the ones that queue deliveries", () => {
      expect(sendingRoutes.map((route) => route.handler).sort()).toEqual([
        'dashboard/webhooks/recover',
        'dashboard/webhooks/redeliver',
        'webhooks/deliveries-redeliver',
        'webhooks/recover',
      ]);
    });

    it.each(sendingRoutes.map((route) => [routeDescription(route)]))(
      '%s may send to the delivery queue, nothing more, and knows its URL',
      (description) => {
        const statement = only(sqsStatementsOf(description), 'SQS statement');
        expect(actionsOf(statement)).toEqual(['sqs:SendMessage']);
        expect(asArray(statement.Resource)).toEqual([arnOf(queueId)]);
        expect(lookups.environmentOf(description).DELIVERY_QUEUE_URL).toEqual({ Ref: queueId });
      },
    );

    it.each<[string, boolean]>([
      ...otherRoutes.map((route): [string, boolean] => [routeDescription(route), route.sendsEmail === true]),
      [fallbackDescription, false],
    ])('%s has no SQS permission and no queue URL, and may send e-mail only if it is a page that does (%s)', (description, sendsEmail) => {
      expect(sqsStatementsOf(description)).toEqual([]);
      expect(lookups.statementsOf(description).some(isSesStatement)).toBe(sendsEmail);
      expect(lookups.environmentOf(description).DELIVERY_QUEUE_URL).toBeUndefined();
    });
  });

  it("lets only the dispatcher, the stream's second reader (password resets) and the invitation page (its role, test/infra/oauth-and-dashboard) send e-mail", () => {
    const withSes = Object.entries(template.findResources('AWS::IAM::Policy')).filter(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Statement[]).some(isSesStatement),
    );
    expect(withSes.map(([id]) => id).sort()).toEqual([
      expect.stringMatching(/^DashboardSettingsWriteEmailRole/),
      expect.stringMatching(/^WebhooksDeletedWebhooks/),
      expect.stringMatching(/^WebhooksDispatcher/),
    ]);
  });
});

describe('ServiceFunction', () => {
  it('refuses LOCAL_* variables, which belong to the local runtime', () => {
    const stack = new Stack(newApp(), 'Check');
    expect(
      () =>
        new ServiceFunction(stack, 'Worker', {
          handler: 'workers/dispatch',
          description: 'x',
          serviceName: 'x',
          environment: { LOCAL_OUTBOX_DIR: '/tmp/outbox' },
        }),
    ).toThrow(/LOCAL_OUTBOX_DIR/);
  });

  // Bundled for real (one small function): what lands in the asset is what Lambda loads.
  const deployed = (context: Record<string, unknown>) => {
    const outdir = mkdtempSync(join(tmpdir(), 'pas-source-maps-'));
    const app = new App({ outdir, context: { ...newApp().node.getAllContext(), 'aws:cdk:bundling-stacks': ['**'], ...context } });
    const stack = new Stack(app, 'Check');
    new ServiceFunction(stack, 'Fallback', { handler: 'meta/fallback', description: 'x', serviceName: 'x' });
    const variables = Template.fromStack(stack).findResources('AWS::Lambda::Function');
    const assets = readdirSync(outdir).filter((name) => name.startsWith('asset.'));
    const files = assets.flatMap((asset) => readdirSync(join(outdir, asset)));
    rmSync(outdir, { recursive: true, force: true });
    return { environment: Object.values(variables)[0]?.Properties.Environment.Variables, files };
  };

  it('ships no source map and does not ask node for one by default: reading a map costs every cold start', () => {
    const { environment, files } = deployed({});
    // index.mjs and the chunks of its import()s (a built-in's shim among them), no map beside any.
    expect(files).toContain('index.mjs');
    expect(files.filter((file) => !file.endsWith('.mjs'))).toEqual([]);
    expect(environment.NODE_OPTIONS).toBeUndefined();
  });

  it('with -c sourceMaps=true ships the map beside the bundle and sets --enable-source-maps', () => {
    const { environment, files } = deployed({ sourceMaps: 'true' });
    const code = files.filter((file) => file.endsWith('.mjs'));
    expect(code).toContain('index.mjs');
    expect(files.sort()).toEqual([...code, ...code.map((file) => `${file}.map`)].sort());
    expect(environment.NODE_OPTIONS).toBe('--enable-source-maps');
  });
});
