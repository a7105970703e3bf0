import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { closedExecution, eventually, orderInput, startOrderFlow } from './order-flow';

describe('local Step Functions endpoint', () => {
  let flow: Awaited<ReturnType<typeof startOrderFlow>>;
  beforeAll(async () => {
    flow = await startOrderFlow();
  });
  afterAll(async () => {
    await flow.close();
  });

  const start = (name: string, input: string) =>
    flow.client.send(new StartExecutionCommand({ stateMachineArn: flow.stateMachineArn, name, input }));

  const summaryOf = (name: string) => flow.local.executions().find((execution) => execution.name === name);

  it('runs Task → Choice → Task to SUCCEEDED with the output of the last state', async () => {
    const { executionArn, startDate } = await start('ok-1', orderInput({ id: 'ok-1', mode: 'ok', route: 'fast' }));
    expect(executionArn).toBe('arn:aws:states:us-east-1:123456789012:execution:order-flow:ok-1');
    expect(startDate).toBeInstanceOf(Date);

    const described = await closedExecution(flow.client, executionArn!);
    expect(described.status).toBe('SUCCEEDED');
    expect(described.stateMachineArn).toBe(flow.stateMachineArn);
    expect(described.stopDate!.getTime()).toBeGreaterThanOrEqual(described.startDate!.getTime());
    expect(JSON.parse(described.output!)).toEqual({
      order: { id: 'ok-1', mode: 'ok', route: 'fast' },
      prepared: { route: 'fast' },
      finished: { done: true },
    });
    expect(flow.calls.finish).toContainEqual({ order: { id: 'ok-1', mode: 'ok', route: 'fast' }, prepared: { route: 'fast' } });
  });

  it('retries a task whose handler throws the error named in Retry', async () => {
    const { executionArn } = await start('flaky-1', orderInput({ id: 'flaky-1', mode: 'flaky-once', route: 'fast' }));
    const described = await closedExecution(flow.client, executionArn!);
    expect(described.status).toBe('SUCCEEDED');
    const prepareCalls = flow.calls.prepare.filter((input) => JSON.stringify(input).includes('flaky-1'));
    expect(prepareCalls).toHaveLength(2);
    expect(summaryOf('flaky-1')).toMatchObject({ status: 'SUCCEEDED', retries: 1 });
  });

  it('catches any other error: the recorder gets {Error, Cause} and the Fail state ends the run', async () => {
    const { executionArn } = await start('broken-1', orderInput({ id: 'broken-1', mode: 'broken', route: 'fast' }));
    const described = await closedExecution(flow.client, executionArn!);
    expect(described).toMatchObject({ status: 'FAILED', error: 'PrepareFailed', cause: 'Prepare failed after its retries' });
    expect(flow.calls.recordFailure).toContainEqual({ Error: 'BrokenError', Cause: 'order broken-1 cannot be prepared' });
  });

  it('StopExecution aborts a run waiting in a Wait state; the next task never runs', async () => {
    const order = { id: 'slow-1', mode: 'ok', route: 'slow' } as const;
    const { executionArn } = await start('slow-1', orderInput(order));
    // Prepare, ChooseRoute, Pause entered: now in a 1000 s × 0.01 = 10 s wait.
    await eventually(() => (summaryOf('slow-1')?.transitions ?? 0) >= 3);

    const { stopDate } = await flow.client.send(new StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'by the test' }));
    expect(stopDate).toBeInstanceOf(Date);
    const described = await flow.client.send(new DescribeExecutionCommand({ executionArn }));
    expect(described).toMatchObject({ status: 'ABORTED', error: 'Cancelled', cause: 'by the test' });
    expect(described.stopDate).toBeInstanceOf(Date);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(flow.calls.finish.filter((input) => JSON.stringify(input).includes('slow-1'))).toEqual([]);
    expect(summaryOf('slow-1')?.status).toBe('ABORTED');
  });

  it('answers StartExecution again with the same name and input while running, as AWS does', async () => {
    const input = orderInput({ id: 'idem-1', mode: 'ok', route: 'slow' });
    const first = await start('idem-1', input);
    const again = await start('idem-1', input);
    expect(again.executionArn).toBe(first.executionArn);
    expect(again.startDate).toEqual(first.startDate);
    expect(flow.local.executions().filter((execution) => execution.name === 'idem-1')).toHaveLength(1);

    await expect(start('idem-1', orderInput({ id: 'idem-1', mode: 'ok', route: 'fast' }))).rejects.toBeInstanceOf(ExecutionAlreadyExists);

    await flow.client.send(new StopExecutionCommand({ executionArn: first.executionArn }));
    // A closed execution's name is taken whatever the input.
    await expect(start('idem-1', input)).rejects.toBeInstanceOf(ExecutionAlreadyExists);
  });

  it('answers unknown machines, executions and operations with the errors the SDK knows', async () => {
    await expect(
      flow.client.send(new StartExecutionCommand({ stateMachineArn: `${flow.stateMachineArn}-nope`, name: 'x', input: '{}' })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      flow.client.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:123456789012:execution:order-flow:nope' })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      flow.client.send(new StopExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:123456789012:execution:order-flow:nope' })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(start('bad-input', '{not json')).rejects.toMatchObject({ name: 'InvalidExecutionInput' });

    const response = await fetch(flow.local.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-amz-json-1.0', 'X-Amz-Target': 'AWSStepFunctions.ListActivities' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });

  it('counts the same positive number of transitions for two identical runs', async () => {
    for (const name of ['same-1', 'same-2']) {
      const { executionArn } = await start(name, orderInput({ id: 'same', mode: 'ok', route: 'fast' }));
      await closedExecution(flow.client, executionArn!);
    }
    const [first, second] = [summaryOf('same-1'), summaryOf('same-2')];
    expect(first?.transitions).toBe(3); // Prepare, ChooseRoute, Finish
    expect(second?.transitions).toBe(first?.transitions);
    expect(first?.stoppedMs).toBeGreaterThanOrEqual(first!.startedMs);
  });
});

describe('local Step Functions time scale', () => {
  it('shortens a Wait by the time scale', async () => {
    const flow = await startOrderFlow({ timeScale: 0.0005 }); // 1000 s → 0.5 s
    try {
      const began = Date.now();
      const { executionArn } = await flow.client.send(
        new StartExecutionCommand({
          stateMachineArn: flow.stateMachineArn,
          name: 'slow',
          input: orderInput({ id: 'w', mode: 'ok', route: 'slow' }),
        }),
      );
      const described = await closedExecution(flow.client, executionArn!);
      const elapsed = Date.now() - began;
      expect(described.status).toBe('SUCCEEDED');
      expect(elapsed).toBeGreaterThanOrEqual(450);
      // Far below the 1000 s the wait names unscaled, with room for a busy machine.
      expect(elapsed).toBeLessThan(60_000);
    } finally {
      await flow.close();
    }
  });
});
