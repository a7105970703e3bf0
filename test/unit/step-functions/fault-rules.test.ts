import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartExecutionCommand } from '@aws-sdk/client-sfn';
import { createFaultInjector, faultsFromFile, writeFaultsFile, type FaultRules } from '../../../lib/local/step-functions/fault-rules';
import { closedExecution, orderInput, startOrderFlow, type Order } from './order-flow';

describe('fault rules in the local Step Functions runtime', () => {
  let rules: FaultRules = [];
  let flow: Awaited<ReturnType<typeof startOrderFlow>>;
  beforeAll(async () => {
    flow = await startOrderFlow({ faults: () => rules });
  });
  afterAll(async () => {
    await flow.close();
  });
  afterEach(() => {
    rules = [];
  });

  const run = async (order: Order) => {
    const began = Date.now();
    const { executionArn } = await flow.client.send(
      new StartExecutionCommand({ stateMachineArn: flow.stateMachineArn, name: order.id, input: orderInput(order) }),
    );
    const described = await closedExecution(flow.client, executionArn!);
    return { described, elapsedMs: Date.now() - began, summary: flow.local.executions().find((e) => e.name === order.id) };
  };
  const prepareCallsFor = (id: string) => flow.calls.prepare.filter((input) => (input as { order: Order }).order.id === id);

  it('fails the matching task `times` times before the real handler runs (through Retry)', async () => {
    rules = [{ match: { 'order.id': 'f-1' }, state: 'Prepare', error: 'FlakyError', cause: 'injected', times: 2 }];
    const { described, summary } = await run({ id: 'f-1', mode: 'ok', route: 'fast' });
    expect(described.status).toBe('SUCCEEDED');
    expect(summary).toMatchObject({ retries: 2 });
    expect(prepareCallsFor('f-1')).toHaveLength(1);

    const other = await run({ id: 'f-2', mode: 'ok', route: 'fast' });
    expect(other.summary).toMatchObject({ status: 'SUCCEEDED', retries: 0 });
  });

  it('keeps the Retry backoff, scaled: 1 s, 2 s, 4 s × 0.01, then Catch when the attempts are spent', async () => {
    rules = [{ match: { '$.order.id': 'f-3' }, state: 'Prepare', error: 'FlakyError', cause: 'still flaky', times: 3 }];
    const recovered = await run({ id: 'f-3', mode: 'ok', route: 'fast' });
    expect(recovered.described.status).toBe('SUCCEEDED');
    expect(recovered.summary?.retries).toBe(3);
    expect(recovered.elapsedMs).toBeGreaterThanOrEqual(70);

    rules = [{ match: { 'order.id': 'f-4' }, state: 'Prepare', error: 'FlakyError', cause: 'still flaky', times: 4 }];
    const exhausted = await run({ id: 'f-4', mode: 'ok', route: 'fast' });
    expect(exhausted.described).toMatchObject({ status: 'FAILED', error: 'PrepareFailed' });
    expect(flow.calls.recordFailure).toContainEqual({ Error: 'FlakyError', Cause: 'still flaky' });
    expect(prepareCallsFor('f-4')).toEqual([]);
  });

  it('without `times` fails every matching invocation', async () => {
    rules = [{ match: { 'order.id': 'f-5' }, state: 'Prepare', error: 'Injected', cause: 'injected by the test' }];
    const { described } = await run({ id: 'f-5', mode: 'ok', route: 'fast' });
    expect(described).toMatchObject({ status: 'FAILED', error: 'PrepareFailed' });
    expect(flow.calls.recordFailure).toContainEqual({ Error: 'Injected', Cause: 'injected by the test' });
  });

  it("looks a path up in the execution's input when the task's input lacks it", async () => {
    // RecordFailure's input is only {Error, Cause}; it has no Catch, so its fault ends the run.
    rules = [{ match: { 'order.id': 'f-6' }, state: 'RecordFailure', error: 'RecorderDown', cause: 'no recorder' }];
    const { described } = await run({ id: 'f-6', mode: 'broken', route: 'fast' });
    expect(described).toMatchObject({ status: 'FAILED', error: 'RecorderDown', cause: 'no recorder' });
  });
});

describe('faultsFromFile', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'faults-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads no rules from an absent file', () => {
    expect(faultsFromFile(join(directory, 'absent.json'))()).toEqual([]);
  });

  it('reads the rules written by writeFaultsFile, afresh on every call', () => {
    const path = join(directory, 'faults.json');
    const read = faultsFromFile(path);
    const rules: FaultRules = [{ match: { 'workflow.project_id': 'p1' }, state: 'Build', error: 'AiProviderTransientError', times: 1 }];
    writeFaultsFile(path, rules);
    expect(read()).toEqual(rules);
    writeFaultsFile(path, []);
    expect(read()).toEqual([]);
  });

  it('refuses a file that does not hold rules', () => {
    const path = join(directory, 'faults.json');
    writeFileSync(path, JSON.stringify({ state: 'Build' }));
    expect(() => faultsFromFile(path)()).toThrow(/array of/);
  });

  it('drives a runtime in this process the same way', async () => {
    const path = join(directory, 'faults.json');
    const flow = await startOrderFlow({ faults: faultsFromFile(path) });
    try {
      writeFaultsFile(path, [{ state: 'Finish', error: 'FinishDown', cause: 'from the file' }]);
      const { executionArn } = await flow.client.send(
        new StartExecutionCommand({
          stateMachineArn: flow.stateMachineArn,
          name: 'file-1',
          input: orderInput({ id: 'file-1', mode: 'ok', route: 'fast' }),
        }),
      );
      expect(await closedExecution(flow.client, executionArn!)).toMatchObject({
        status: 'FAILED',
        error: 'FinishDown',
        cause: 'from the file',
      });
    } finally {
      await flow.close();
    }
  });
});

describe('createFaultInjector', () => {
  it('counts `times` per rule and starts afresh once a rule was removed and written again', () => {
    let rules: FaultRules = [{ state: 'Build', error: 'E', times: 1 }];
    const injector = createFaultInjector(() => rules);
    expect(injector.take('Build', {}, {})?.error).toBe('E');
    expect(injector.take('Build', {}, {})).toBeUndefined();
    rules = [];
    expect(injector.take('Build', {}, {})).toBeUndefined();
    rules = [{ state: 'Build', error: 'E', times: 1 }];
    expect(injector.take('Build', {}, {})?.error).toBe('E');
    expect(injector.take('Other', {}, {})).toBeUndefined();
  });

  it('injects nothing (and says so once) when the rules cannot be read', () => {
    const logged: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const injector = createFaultInjector(() => {
        throw new Error('half-written file');
      });
      expect(injector.take('Build', {}, {})).toBeUndefined();
      expect(injector.take('Build', {}, {})).toBeUndefined();
      expect(logged).toHaveLength(1);
    } finally {
      console.error = consoleError;
    }
  });
});
