import { Match } from 'aws-cdk-lib/assertions';
import { routeTable } from '../../functions/routes/index';
import { domainOf } from '../../lib/domain-stack';
import { functionAlarmDescription } from '../../lib/operations/function-alarms';
import { type Synthesized, synthesized, syntheticRoutes } from './synthesized';

/** CloudFormation's limit is 500 resources a stack; the service keeps every stack under 60 % of it. */
const resourceCeiling = 300;
const extraRoutes = 25;

const resourceCounts = (s: Synthesized): Record<string, number> =>
  Object.fromEntries(Object.entries(s.templates).map(([name, template]) => [name, Object.keys(template.Resources ?? {}).length]));

const overCeiling = (s: Synthesized) => Object.entries(resourceCounts(s)).filter(([, count]) => count > resourceCeiling);

describe('stacks', () => {
  const s = synthesized();

  describe('headroom', () => {
    it(`keeps every stack at ${resourceCeiling} resources or fewer with today's routes`, () => {
      expect(overCeiling(s)).toEqual([]);
    });

    it(`keeps every stack at ${resourceCeiling} or fewer with ${extraRoutes} more routes in the largest domain`, () => {
      // The worst case: every new route lands in the domain that already has the most resources.
      const counts = resourceCounts(s);
      const largest = Object.entries(s.domainStacks).sort(([, a], [, b]) => (counts[b] ?? 0) - (counts[a] ?? 0))[0]![0];
      const grown = synthesized({}, { extraRoutes: { count: extraRoutes, domain: largest } });
      const grownCounts = resourceCounts(grown);
      const stackName = grown.domainStacks[largest] as string;
      // Each route adds its function, log group, integration, route, invoke permission and alarm (its role is shared).
      expect((grownCounts[stackName] ?? 0) - (counts[stackName] ?? 0)).toBe(extraRoutes * 6);
      expect(overCeiling(grown)).toEqual([]);
    });

    it(`puts ${extraRoutes} routes of a new domain in a stack of their own, with no change to lib/`, () => {
      const grown = synthesized({}, { extraRoutes: { count: extraRoutes, domain: 'Synthetic' } });
      const stackName = grown.domainStacks.Synthetic as string;
      expect(stackName).toBe(`${grown.coreStackName}-Synthetic`);
      const routeKeys = Object.values(grown.stack(stackName).findResources('AWS::ApiGatewayV2::Route')).map(
        (route) => route.Properties.RouteKey,
      );
      expect(routeKeys.sort()).toEqual(
        syntheticRoutes(extraRoutes, 'Synthetic')
          .map((route) => `GET ${route.path}`)
          .sort(),
      );
      expect(overCeiling(grown)).toEqual([]);
      expect(grown.violations).toEqual([]);
    });
  });

  describe('domains', () => {
    it("puts each route's function and API route in the stack of its domain (its domain field, else its tag)", () => {
      for (const route of routeTable) {
        const stack = s.stack(s.domainStacks[domainOf(route)] as string);
        const description = `${route.method} ${route.path}`;
        expect([
          description,
          Object.keys(stack.findResources('AWS::Lambda::Function', { Properties: { Description: description } })),
        ]).toEqual([description, [expect.any(String)]]);
        expect(Object.keys(stack.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: description } }))).toHaveLength(1);
      }
    });

    it('gives routes of one domain and the same permissions one role', () => {
      const projects = s.stack(s.domainStacks.Projects as string);
      const roles = Object.values(projects.findResources('AWS::Lambda::Function')).map((fn) => fn.Properties.Role['Fn::GetAtt'][0]);
      // Projects: reads (list, get) and writes (create, update, delete).
      expect(new Set(roles).size).toBe(2);
    });

    it('deploys every domain stack after the core stack, whose exports it imports; the core stack imports nothing', () => {
      for (const name of Object.values(s.domainStacks)) expect(s.dependencies[name]).toContain(s.coreStackName);
      expect(JSON.stringify(s.templates[s.coreStackName])).not.toContain('Fn::ImportValue');
      const exported = Object.values(s.templates[s.coreStackName]!.Outputs as Record<string, { Export?: { Name: string } }>)
        .map((output) => output.Export?.Name)
        .filter(Boolean);
      expect(exported).toEqual(expect.arrayContaining([`${s.coreStackName}:TableArn`, `${s.coreStackName}:ApiId`]));
    });
  });

  describe('stateful resources', () => {
    /**
     * The logical ids the single stack of earlier releases gave them. An existing deployment keeps
     * them in place only while these hold: a changed id would make CloudFormation replace the resource.
     */
    const keptIds: Record<string, string> = {
      TableCD117FA1: 'AWS::DynamoDB::GlobalTable',
      WorkflowsArtifacts1479CE20: 'AWS::S3::Bucket',
      WorkflowsArtifactAccessLogs01F6E149: 'AWS::S3::Bucket',
      WorkflowsArtifactKey90060E56: 'AWS::KMS::Key',
      WorkflowsProvenanceSigningKey04B1B64E: 'AWS::KMS::Key',
      ImagesRepository2D0F5B9C: 'AWS::ECR::Repository',
      WebhooksQueueCBC86013: 'AWS::SQS::Queue',
      WebhooksDeadLetterQueue1C65998B: 'AWS::SQS::Queue',
      WebhooksFanOutFailures0931966B: 'AWS::SQS::Queue',
      SecurityFailures0F67ADF6: 'AWS::SQS::Queue',
      TestsFailuresA9820BE8: 'AWS::SQS::Queue',
      ExecutionSafetyNetFailuresDE4CEB50: 'AWS::SQS::Queue',
      ApiF70053CD: 'AWS::ApiGatewayV2::Api',
      ApiDefaultStage189A7074: 'AWS::ApiGatewayV2::Stage',
    };

    it('stay in the core stack, named as the single-stack release did (logical ids unchanged), under termination protection', () => {
      const core = s.templates[s.coreStackName]!.Resources as Record<string, { Type: string }>;
      for (const [id, type] of Object.entries(keptIds)) expect([id, core[id]?.Type]).toEqual([id, type]);
      expect(s.coreStackName).toBe('ProjectAutomationService');
      expect(s.terminationProtection[s.coreStackName]).toBe(true);
    });

    it('are retained: deleting or replacing them keeps the data', () => {
      const core = s.templates[s.coreStackName]!.Resources as Record<
        string,
        { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string }
      >;
      const dataTypes = ['AWS::DynamoDB::GlobalTable', 'AWS::S3::Bucket', 'AWS::KMS::Key', 'AWS::ECR::Repository', 'AWS::SQS::Queue'];
      const data = Object.entries(core).filter(([, resource]) => dataTypes.includes(resource.Type));
      expect(data.length).toBeGreaterThanOrEqual(Object.keys(keptIds).length - 2);
      for (const [id, resource] of data) {
        expect([id, resource.DeletionPolicy, resource.UpdateReplacePolicy]).toEqual([id, 'Retain', 'Retain']);
      }
    });

    it('live nowhere else: the domain stacks hold no table, bucket, key, repository or queue', () => {
      const dataTypes = [
        'AWS::DynamoDB::GlobalTable',
        'AWS::DynamoDB::Table',
        'AWS::S3::Bucket',
        'AWS::KMS::Key',
        'AWS::ECR::Repository',
        'AWS::SQS::Queue',
      ];
      for (const name of Object.values(s.domainStacks)) {
        const types = Object.values(s.templates[name]!.Resources as Record<string, { Type: string }>).map((r) => r.Type);
        expect([name, types.filter((type) => dataTypes.includes(type))]).toEqual([name, []]);
      }
    });
  });

  describe('alarms', () => {
    const alarms = () => Object.values(s.template.findResources('AWS::CloudWatch::Alarm'));
    const topicId = () => s.idAt(`${s.coreStackName}/Alarms/Topic/Resource`);
    const notifiesTopic = (alarm: Record<string, any>) =>
      JSON.stringify(alarm.Properties.AlarmActions) === JSON.stringify([{ Ref: topicId() }]) &&
      JSON.stringify(alarm.Properties.OKActions) === JSON.stringify([{ Ref: topicId() }]);
    const described = (text: string | RegExp) =>
      alarms().filter((alarm) =>
        typeof text === 'string' ? alarm.Properties.AlarmDescription === text : text.test(alarm.Properties.AlarmDescription),
      );

    it('all notify the one alarm topic, on ALARM and on OK, and treat missing data as fine', () => {
      expect(alarms().length).toBeGreaterThan(routeTable.length);
      for (const alarm of alarms()) {
        expect([alarm.Properties.AlarmDescription, notifiesTopic(alarm), alarm.Properties.TreatMissingData]).toEqual([
          alarm.Properties.AlarmDescription,
          true,
          'notBreaching',
        ]);
      }
      s.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    });

    it('watch every function: error rate over 1 % or any throttle', () => {
      for (const fn of Object.values(s.template.findResources('AWS::Lambda::Function'))) {
        const found = described(functionAlarmDescription(fn.Properties.Description));
        expect([fn.Properties.Description, found.length]).toEqual([fn.Properties.Description, 1]);
        const expression = (found[0]!.Properties.Metrics as { Expression?: string }[]).find((m) => m.Expression)?.Expression;
        expect(expression).toContain('throttles > 0');
        expect(expression).toContain('errors > 0.01 * invocations');
      }
    });

    it('watch every dead-letter and failure queue', () => {
      const queueOf = (alarm: Record<string, any>) => alarm.Properties.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0];
      const watched = alarms()
        .filter((alarm) => alarm.Properties.Namespace === 'AWS/SQS')
        .map((alarm) => [queueOf(alarm), alarm.Properties.MetricName]);
      expect(watched.sort()).toEqual(
        [
          // Read (and emptied) by the dispatcher: a message that arrived, and one its reader fails on too.
          [s.idAt(`${s.coreStackName}/Webhooks/DeadLetterQueue/Resource`), 'NumberOfMessagesReceived'],
          [s.idAt(`${s.coreStackName}/Webhooks/DeadLetterQueue/Resource`), 'ApproximateAgeOfOldestMessage'],
          [s.idAt(`${s.coreStackName}/Webhooks/FanOutFailures/Resource`), 'ApproximateNumberOfMessagesVisible'],
          [s.idAt(`${s.coreStackName}/ExecutionSafetyNet/Failures/Resource`), 'ApproximateNumberOfMessagesVisible'],
          [s.idAt(`${s.coreStackName}/Security/Failures/Resource`), 'NumberOfMessagesSent'],
          [s.idAt(`${s.coreStackName}/Tests/Failures/Resource`), 'NumberOfMessagesSent'],
          [s.idAt(`${s.coreStackName}/Reviews/Failures/Resource`), 'NumberOfMessagesSent'],
          [s.idAt(`${s.coreStackName}/JobFailureDeadLetters/Failures/Resource`), 'ApproximateNumberOfMessagesVisible'],
        ].sort(),
      );
    });

    it('tell a webhook dead letter as it arrives (the dispatcher reads it within seconds), and one it fails on for an hour', () => {
      const deadLetters = s.idAt(`${s.coreStackName}/Webhooks/DeadLetterQueue/Resource`);
      const onDeadLetters = alarms().filter(
        (alarm) => alarm.Properties.Namespace === 'AWS/SQS' && alarm.Properties.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0] === deadLetters,
      );
      expect(
        onDeadLetters.map(({ Properties: p }) => [p.MetricName, p.Statistic, p.Period, p.Threshold, p.ComparisonOperator]).sort(),
      ).toEqual(
        [
          ['ApproximateAgeOfOldestMessage', 'Maximum', 300, 3600, 'GreaterThanOrEqualToThreshold'],
          ['NumberOfMessagesReceived', 'Sum', 300, 1, 'GreaterThanOrEqualToThreshold'],
        ].sort(),
      );
    });

    it('can reach someone: the topic lets CloudWatch alarms of this account publish (enforceSSL replaced its default policy)', () => {
      const policies = Object.values(s.stack(s.coreStackName).findResources('AWS::SNS::TopicPolicy'));
      const ofTopic = policies.filter((policy) => JSON.stringify(policy.Properties.Topics) === JSON.stringify([{ Ref: topicId() }]));
      const statements = ofTopic.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]);
      const publish = statements.find(
        (statement) => statement.Effect === 'Allow' && statement.Principal?.Service === 'cloudwatch.amazonaws.com',
      );
      expect(publish).toMatchObject({
        Action: 'sns:Publish',
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: { 'aws:SourceArn': expect.anything() } },
      });
      expect(JSON.stringify(publish?.Condition.ArnLike)).toContain(':alarm:*');
    });

    it('watch the dispatcher and fan-out errors, both state machines, the API and the table', () => {
      for (const description of [
        'Webhook dispatcher: an invocation failed (5 minutes)',
        'Webhook fan-out: an invocation failed (5 minutes)',
        'Workflow state machine: an execution timed out',
        'Deployment state machine: an execution timed out',
        'HTTP API: more than 1 % of requests (at least 5) answered 5xx in 5 minutes',
        'DynamoDB table: requests throttled (5 minutes)',
      ])
        expect([description, described(description).length]).toEqual([description, 1]);
      expect(described(/^Workflow state machine: 5 or more executions failed/)).toHaveLength(1);
      expect(described(/^Deployment state machine: 5 or more executions failed/)).toHaveLength(1);
      const latency = described(/^HTTP API: p99 latency/)[0]!;
      expect(latency.Properties).toMatchObject({
        ExtendedStatistic: 'p99',
        MetricName: 'Latency',
        Namespace: 'AWS/ApiGateway',
        EvaluationPeriods: 3,
      });
    });

    it('reach the address given as context alarmEmail', () => {
      const withEmail = synthesized({ alarmEmail: 'oncall@example.com' });
      withEmail.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
      s.template.resourceCountIs('AWS::SNS::Subscription', 0);
    });
  });

  it('the dashboard shows the service figures by their metric names', () => {
    const dashboard = Object.values(s.template.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboard).toHaveLength(1);
    const body = JSON.stringify(dashboard[0]!.Properties.DashboardBody);
    for (const name of [
      'Requests',
      'WebhookAttempts',
      'WebhookFirstAttemptLatency',
      'WorkflowOutcomes',
      'DeploymentDuration',
      'ScanDuration',
    ])
      expect([name, body.includes(`MetricName=\\\\\\"${name}\\\\\\"`)]).toEqual([name, true]);
  });
});

describe('metrics namespace', () => {
  it("is the core stack's name on every function", () => {
    const s = synthesized();
    for (const fn of Object.values(s.template.findResources('AWS::Lambda::Function')))
      expect(fn.Properties.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE).toBe(s.coreStackName);
  });
});
