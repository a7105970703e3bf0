import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { startLocalStepFunctions } from '../../../lib/local/step-functions/local-step-functions';
import {
  InvalidDefinitionError,
  substitutePlaceholders,
  validateDefinitionFile,
} from '../../../lib/local/step-functions/validate-definition';
import { arns, closedExecution, fixture, orderFlowSubstitutions } from './order-flow';

const noop = async () => ({});
const orderFlowHandlers = { [arns.prepare]: noop, [arns.finish]: noop, [arns.recordFailure]: noop };

describe('validateDefinitionFile', () => {
  it('accepts the fixture with its substitutions', () => {
    expect(validateDefinitionFile(fixture('order-flow.asl.json'), orderFlowSubstitutions)).toEqual({ valid: true, errors: [] });
  });

  it('accepts the placeholders when no substitutions are given (the CDK side before it knows the ARNs)', () => {
    expect(validateDefinitionFile(fixture('order-flow.asl.json'))).toEqual({ valid: true, errors: [] });
  });

  it("lists the validator's problems", () => {
    const { valid, errors } = validateDefinitionFile(fixture('missing-target.asl.json'), orderFlowSubstitutions);
    expect(valid).toBe(false);
    expect(errors).toContainEqual(expect.stringMatching(/^MISSING_TRANSITION_TARGET: .*NoSuchState/));
  });

  it('reports a placeholder without a substitution, and an absent file', () => {
    const { PrepareFunctionArn: _left, ...withoutPrepare } = orderFlowSubstitutions;
    expect(validateDefinitionFile(fixture('order-flow.asl.json'), withoutPrepare).errors).toContain(
      'UNRESOLVED_PLACEHOLDER: no substitution for ${PrepareFunctionArn}',
    );
    expect(validateDefinitionFile(fixture('absent.asl.json')).errors).toEqual([expect.stringMatching(/^cannot read /)]);
  });

  it('substitutes as CloudFormation does, escaped for the JSON string it sits in', () => {
    expect(substitutePlaceholders('{"a": "${A}", "b": "${B}"}', { A: 'x"y' })).toEqual({
      text: '{"a": "x\\"y", "b": "${B}"}',
      unresolved: ['B'],
    });
  });
});

describe('startLocalStepFunctions refuses a machine it cannot run as AWS would', () => {
  it("refuses invalid ASL with the validator's message", async () => {
    const starting = startLocalStepFunctions({
      machines: [
        {
          name: 'broken',
          definitionFile: fixture('missing-target.asl.json'),
          substitutions: orderFlowSubstitutions,
          taskHandlers: orderFlowHandlers,
        },
      ],
    });
    await expect(starting).rejects.toBeInstanceOf(InvalidDefinitionError);
    await expect(starting).rejects.toThrow(/MISSING_TRANSITION_TARGET: .*NoSuchState/);
  });

  it('refuses a Task whose Resource has no handler (it would otherwise call the real Lambda)', async () => {
    const { [arns.finish]: _finish, ...withoutFinish } = orderFlowHandlers;
    await expect(
      startLocalStepFunctions({
        machines: [
          {
            name: 'order-flow',
            definitionFile: fixture('order-flow.asl.json'),
            substitutions: orderFlowSubstitutions,
            taskHandlers: withoutFinish,
          },
        ],
      }),
    ).rejects.toThrow(`NO_TASK_HANDLER: Task Finish has Resource ${arns.finish}`);
  });
});

describe('Task states nested in Parallel and Map', () => {
  it('run their handlers and count their transitions', async () => {
    const echo = 'arn:aws:lambda:us-east-1:123456789012:function:echo';
    const double = 'arn:aws:lambda:us-east-1:123456789012:function:double';
    const local = await startLocalStepFunctions({
      machines: [
        {
          name: 'nested',
          definitionFile: fixture('parallel-map.asl.json'),
          substitutions: { EchoFunctionArn: echo, DoubleFunctionArn: double },
          taskHandlers: { [echo]: async (input) => input, [double]: async (input) => (input as number) * 2 },
        },
      ],
    });
    const client = new SFNClient({
      endpoint: local.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    try {
      const { executionArn } = await client.send(
        new StartExecutionCommand({ stateMachineArn: local.stateMachineArn('nested'), name: 'n1', input: '{"items":[1,2,3]}' }),
      );
      const described = await closedExecution(client, executionArn!);
      expect(described.status).toBe('SUCCEEDED');
      expect(JSON.parse(described.output!)).toEqual([{ items: [1, 2, 3] }, [2, 4, 6]]);
      // Both, Left, EachItem and Double three times.
      expect(local.executions()[0]?.transitions).toBe(6);
    } finally {
      client.destroy();
      await local.stop();
    }
  });
});
