import { Match } from 'aws-cdk-lib/assertions';
import { executionEndedDescription, jobFailedDescription } from '../../lib/constructs/execution-safety-net';
import { securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { testsFunctionDescription } from '../../lib/constructs/test-running';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { actionsOf, arnOf, only, templateLookups } from './template-helpers';
import { grantsOf, logAndTraceGrants, tableGrants } from './worker-grants';
import { idsOf, synthesized } from './synthesized';

describe('execution safety net', () => {
  const app = synthesized();
  const ids = idsOf(app);
  const template = app.template;
  const lookups = templateLookups(template);

  it('sends executions of both state machines that end FAILED, TIMED_OUT or ABORTED to its function, with retries and a dead-letter queue', () => {
    const functionId = ids.executionEnded;
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: [{ Ref: ids.workflowMachine }, { Ref: ids.deploymentMachine }],
        },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
          DeadLetterConfig: { Arn: Match.anyValue() },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 86_400 },
        }),
      ],
    });
  });

  it('the events its rule cannot hand over, and those its function fails on after its retries, both reach the dead-letter queue', () => {
    const core = app.stack(app.coreStackName);
    const queuePolicies = Object.values(core.findResources('AWS::SQS::QueuePolicy')).filter(
      (policy) => JSON.stringify(policy.Properties.Queues) === JSON.stringify([{ Ref: ids.executionFailures }]),
    );
    const statements = queuePolicies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]);
    expect(statements.find((statement) => statement.Effect === 'Allow')).toMatchObject({
      Principal: { Service: 'events.amazonaws.com' },
      Action: 'sqs:SendMessage',
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    const invokeConfig = only(
      Object.values(
        template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: ids.executionEnded } } }),
      ),
      'event invoke config of the execution safety net',
    );
    expect(invokeConfig.Properties.MaximumRetryAttempts).toBe(2);
    expect(invokeConfig.Properties.DestinationConfig.OnFailure.Destination).toEqual({ 'Fn::GetAtt': [ids.executionFailures, 'Arn'] });
  });

  it('its function may write the table, and send to its dead-letter queue, and nothing else of AWS (no Step Functions, no Lambda, no S3)', () => {
    const statements = lookups.statementsOf(executionEndedDescription);
    const actions = statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
    expect(
      actions.every(
        (action) => action.startsWith('dynamodb:') || action.startsWith('logs:') || action.startsWith('xray:') || action.startsWith('sqs:'),
      ),
    ).toBe(true);
    expect(
      statements.filter((statement) => JSON.stringify(statement.Action).includes('sqs:')).map((statement) => statement.Resource),
    ).toEqual([{ 'Fn::GetAtt': [ids.executionFailures, 'Arn'] }]);
    expect(actions).toContain('sqs:SendMessage');
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']));
  });

  it('the failure queues it reads set aside, in a dead-letter queue of their own, what its function fails on five times', () => {
    const deadLetters = app.idAt(`${app.coreStackName}/JobFailureDeadLetters/Failures/Resource`);
    for (const queue of [ids.securityFailures, ids.testFailures, ids.reviewFailures]) {
      expect([queue, lookups.resources()[queue]!.Properties.RedrivePolicy]).toEqual([
        queue,
        { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetters, 'Arn'] }, maxReceiveCount: 5 },
      ]);
    }
  });

  describe('job safety net', () => {
    // Told by construct, not by a property under test.
    const jobFailedId = ids.jobFailed;
    const jobFailed = lookups.resources()[jobFailedId]!;
    const roleId: string = jobFailed.Properties.Role['Fn::GetAtt'][0];
    const securityQueueId = ids.securityFailures;
    const testsQueueId = ids.testFailures;
    const reviewsQueueId = ids.reviewFailures;
    const tableId = ids.table;
    const consumeActions = [
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
    ];
    const { policyStatements } = lookups;

    it('its function is the one described as the job safety net, a function of its own', () => {
      expect(lookups.functionIdWithDescription(jobFailedDescription)).toBe(jobFailedId);
      expect(jobFailed.Type).toBe('AWS::Lambda::Function');
      expect(jobFailedId).not.toBe(lookups.functionIdWithDescription(executionEndedDescription));
    });

    it("the three failure queues are the security, tests and review functions' on-failure destinations", () => {
      expect(new Set([securityQueueId, testsQueueId, reviewsQueueId]).size).toBe(3);
      const onFailureQueueOf = (description: string) =>
        only(
          Object.values(
            template.findResources('AWS::Lambda::EventInvokeConfig', {
              Properties: { FunctionName: { Ref: lookups.functionIdWithDescription(description) } },
            }),
          ),
          `event invoke config of ${description}`,
        ).Properties.DestinationConfig.OnFailure.Destination;
      expect(onFailureQueueOf(securityFunctionDescription)).toEqual(arnOf(securityQueueId));
      expect(onFailureQueueOf(testsFunctionDescription)).toEqual(arnOf(testsQueueId));
      expect(onFailureQueueOf(reviewFunctionDescription)).toEqual(arnOf(reviewsQueueId));
    });

    it('its function reads exactly the security, tests and review failure queues, batches of 10, failing single messages', () => {
      const mappings = Object.values(
        template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { FunctionName: { Ref: jobFailedId } } }),
      );
      expect(
        mappings
          .map((mapping) => mapping.Properties)
          .sort((a, b) => JSON.stringify(a.EventSourceArn).localeCompare(JSON.stringify(b.EventSourceArn))),
      ).toEqual(
        [securityQueueId, testsQueueId, reviewsQueueId]
          .map((queueId) => ({
            FunctionName: { Ref: jobFailedId },
            EventSourceArn: arnOf(queueId),
            BatchSize: 10,
            FunctionResponseTypes: ['ReportBatchItemFailures'],
          }))
          .sort((a, b) => JSON.stringify(a.EventSourceArn).localeCompare(JSON.stringify(b.EventSourceArn))),
      );
      // Nothing else reads those queues, and it reads no other source.
      for (const queueId of [securityQueueId, testsQueueId, reviewsQueueId]) {
        const readers = Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: arnOf(queueId) } }),
        );
        expect([queueId, readers.map((mapping) => mapping.Properties.FunctionName)]).toEqual([queueId, [{ Ref: jobFailedId }]]);
      }
    });

    it('its function is started by its event sources only: no API route, rule, permission or other role reaches it', () => {
      const references = (resource: unknown) => JSON.stringify(resource).includes(`"${jobFailedId}"`);
      expect(
        Object.values(template.findResources('AWS::Lambda::Permission')).filter((permission) =>
          references(permission.Properties.FunctionName),
        ),
      ).toEqual([]);
      expect(
        Object.values(template.findResources('AWS::ApiGatewayV2::Integration')).filter((integration) =>
          references(integration.Properties.IntegrationUri),
        ),
      ).toEqual([]);
      expect(Object.values(template.findResources('AWS::Events::Rule')).filter((rule) => references(rule.Properties.Targets))).toEqual([]);
      expect(policyStatements().filter(({ statement }) => references(statement.Resource))).toEqual([]);
    });

    it("its function knows the table and nothing else, and has 30 s, within the failure queues' visibility timeout", () => {
      expect(jobFailed.Properties.Environment.Variables).toEqual({
        POWERTOOLS_SERVICE_NAME: 'project-automation-service',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_METRICS_NAMESPACE: 'ProjectAutomationService',
        TABLE_NAME: { Ref: tableId },
      });
      expect(jobFailed.Properties.Timeout).toBe(30);
      // Lambda refuses an SQS event source whose visibility timeout is shorter than the function's (SQS's default is 30 s).
      for (const queueId of [securityQueueId, testsQueueId, reviewsQueueId]) {
        expect([queueId, (lookups.resources()[queueId]!.Properties.VisibilityTimeout ?? 30) >= jobFailed.Properties.Timeout]).toEqual([
          queueId,
          true,
        ]);
      }
    });

    it('its function may use its log group and X-Ray, write the table and consume the three failure queues; nothing else of AWS', () => {
      const statements = lookups.statementsOf(jobFailedDescription);
      for (const statement of statements) expect(statement.Effect).toBe('Allow');
      const logGroupId: string = jobFailed.Properties.LoggingConfig.LogGroup.Ref;
      expect(grantsOf(statements)).toEqual(
        [
          ...logAndTraceGrants(logGroupId),
          ...tableGrants(tableId),
          ...[securityQueueId, testsQueueId, reviewsQueueId].flatMap((queueId) =>
            consumeActions.map((action) => `${action} \${${queueId}.Arn}`),
          ),
        ].sort(),
      );
      // Spelled out: it never sends to a queue, never invokes or starts anything, reads no object, key, model or secret.
      expect(statements.flatMap(actionsOf)).not.toContain('sqs:SendMessage');
      for (const prefix of ['lambda:', 'states:', 's3:', 'kms:', 'bedrock:', 'secretsmanager:', 'codebuild:', 'ses:']) {
        expect([prefix, statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith(prefix)))]).toEqual([
          prefix,
          [],
        ]);
      }
      expect(lookups.resources()[roleId]!.Properties.Policies).toBeUndefined();
      expect(lookups.resources()[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    });

    it('no other role consumes the failure queues', () => {
      for (const queueId of [securityQueueId, testsQueueId]) {
        const consumers = policyStatements().filter(
          ({ statement }) =>
            JSON.stringify(statement.Resource).includes(`"${queueId}"`) &&
            actionsOf(statement).some(
              (action) => action !== 'sqs:SendMessage' && action !== 'sqs:GetQueueAttributes' && action !== 'sqs:GetQueueUrl',
            ),
        );
        expect([queueId, new Set(consumers.flatMap(({ roles }) => roles))]).toEqual([queueId, new Set([roleId])]);
      }
    });
  });
});
