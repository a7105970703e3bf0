import { fileURLToPath } from 'node:url';
import { DescribeExecutionCommand, type DescribeExecutionCommandOutput, type SFNClient } from '@aws-sdk/client-sfn';
import type { LocalStepFunctionsOptions } from '../../../lib/local/step-functions/local-step-functions';
import { startLocalMachine, stubFunctionArn } from './local-machine';

/** Shared set-up for the tests of the local Step Functions endpoint, around fixtures/order-flow.asl.json. */

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export const arns = {
  prepare: stubFunctionArn('prepare'),
  finish: stubFunctionArn('finish'),
  recordFailure: stubFunctionArn('record-failure'),
};
export const orderFlowSubstitutions = {
  PrepareFunctionArn: arns.prepare,
  FinishFunctionArn: arns.finish,
  RecordFailureFunctionArn: arns.recordFailure,
};

export class FlakyError extends Error {
  override readonly name = 'FlakyError';
}
export class BrokenError extends Error {
  override readonly name = 'BrokenError';
}

export interface Order {
  id: string;
  /** ok; flaky-once: Prepare throws FlakyError on its first call; broken: Prepare throws BrokenError. */
  mode: 'ok' | 'flaky-once' | 'broken';
  /** slow goes through the fixture's Wait state. */
  route: 'fast' | 'slow';
}

export const orderInput = (order: Order): string => JSON.stringify({ order });

/** The fixture's three functions, each recording the input of every call. */
const orderFlowHandlers = () => {
  const calls = { prepare: [] as unknown[], finish: [] as unknown[], recordFailure: [] as unknown[] };
  const failedOnce = new Set<string>();
  const handlers = {
    [arns.prepare]: async (input: unknown) => {
      calls.prepare.push(input);
      const { order } = input as { order: Order };
      if (order.mode === 'broken') throw new BrokenError(`order ${order.id} cannot be prepared`);
      if (order.mode === 'flaky-once' && !failedOnce.has(order.id)) {
        failedOnce.add(order.id);
        throw new FlakyError('try again');
      }
      return { route: order.route };
    },
    [arns.finish]: async (input: unknown) => {
      calls.finish.push(input);
      return { done: true };
    },
    [arns.recordFailure]: async (input: unknown) => {
      calls.recordFailure.push(input);
      return { recorded: true };
    },
  };
  return { calls, handlers };
};

/** The order-flow machine behind a local endpoint (timeScale 0.01 unless told), and an SFNClient for it. */
export const startOrderFlow = async (options: Partial<Omit<LocalStepFunctionsOptions, 'machines'>> = {}) => {
  const { calls, handlers } = orderFlowHandlers();
  const machine = await startLocalMachine(
    { name: 'order-flow', definitionFile: fixture('order-flow.asl.json'), substitutions: orderFlowSubstitutions, taskHandlers: handlers },
    options,
  );
  return { ...machine, calls };
};

export const eventually = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** DescribeExecution, polled until the execution has closed. */
export const closedExecution = async (client: SFNClient, executionArn: string): Promise<DescribeExecutionCommandOutput> => {
  let described: DescribeExecutionCommandOutput | undefined;
  await eventually(async () => {
    described = await client.send(new DescribeExecutionCommand({ executionArn }));
    return described.status !== 'RUNNING';
  });
  return described as DescribeExecutionCommandOutput;
};
