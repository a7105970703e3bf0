import type { CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildApp } from '../../lib/app';
import { executionEndedDescription } from '../../lib/constructs/execution-safety-net';
import { newApp, templateLookups } from './template-helpers';

describe('execution safety net', () => {
  const stack = buildApp(newApp());
  const template = Template.fromStack(stack);
  const lookups = templateLookups(template);
  const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

  it('sends executions of both state machines that end FAILED, TIMED_OUT or ABORTED to its function, with retries and a dead-letter queue', () => {
    const functionId = idOf(stack.node.findChild('ExecutionSafetyNet').node.findChild('Function').node.findChild('Function') as never);
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: [{ Ref: idOf(stack.workflows.stateMachine) }, { Ref: idOf(stack.deployments.stateMachine) }],
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

  it('its function may write the table and nothing else of AWS (no Step Functions, no Lambda, no S3)', () => {
    const actions = lookups.statementsOf(executionEndedDescription).flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
    expect(actions.every((action) => action.startsWith('dynamodb:') || action.startsWith('logs:') || action.startsWith('xray:'))).toBe(true);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']));
  });
});
