import { randomUUID } from 'node:crypto';
import { ExecutionAbortedError, ExecutionError, ExecutionTimeoutError, type StateMachine } from 'aws-local-stepfunctions';
import type { FaultInjector } from './fault-rules';
import { localTaskHandlers, type TaskHandler } from './task-handlers';

/** Answered to the client as `{"__type": type, "message": message}`, as Step Functions does. */
export class StepFunctionsApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

export interface LocalMachine {
  name: string;
  arn: string;
  stateMachine: StateMachine;
  /** Task state name → the handler of its Resource. */
  taskHandlers: Map<string, TaskHandler>;
}

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';

export interface ExecutionSummary {
  executionArn: string;
  stateMachineName: string;
  name: string;
  status: ExecutionStatus;
  /** States entered (`StateEntered` events, those inside Parallel/Map included); a retry is not an entry. */
  transitions: number;
  /** Retries (`StateRetried` events). AWS bills each retry as one more transition. */
  retries: number;
  startedMs: number;
  stoppedMs: number | undefined;
}

interface ExecutionRecord extends ExecutionSummary {
  stateMachineArn: string;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
  abort: () => void;
}

type Run = ReturnType<StateMachine['run']>;

const toEpochSeconds = (ms: number) => ms / 1000;

/** AWS: 1-80 characters, none of whitespace, brackets, wildcards, the listed specials or control characters. */
const validName = /^[^\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]{1,80}$/;

const parseInput = (input: string): unknown => {
  try {
    return JSON.parse(input);
  } catch (error) {
    throw new StepFunctionsApiError('InvalidExecutionInput', `Invalid State Machine Execution Input: ${(error as Error).message}`);
  }
};

const countEvents = async (events: Run['eventLogs'], record: ExecutionRecord): Promise<void> => {
  for await (const event of events) {
    if (event.type === 'StateEntered') record.transitions += 1;
    else if (event.type === 'StateRetried') record.retries += 1;
  }
};

const outcomeOf = (result: PromiseSettledResult<unknown>): Pick<ExecutionRecord, 'status' | 'output' | 'error' | 'cause'> => {
  if (result.status === 'fulfilled') return { status: 'SUCCEEDED', output: JSON.stringify(result.value ?? null) };
  const reason: unknown = result.reason;
  if (reason instanceof ExecutionTimeoutError) return { status: 'TIMED_OUT', error: 'States.Timeout', cause: 'The execution timed out' };
  if (reason instanceof ExecutionAbortedError) return { status: 'ABORTED' };
  // ExecutionError wraps what failed the run: its name is the Step Functions error, its message the Cause.
  const failure = reason instanceof ExecutionError && reason.cause instanceof Error ? reason.cause : reason;
  if (failure instanceof Error) return { status: 'FAILED', error: failure.name, cause: failure.message };
  return { status: 'FAILED', error: 'States.Runtime', cause: String(failure) };
};

export interface ExecutionStoreOptions {
  machines: Map<string, LocalMachine>;
  faults: FaultInjector;
  region: string;
  account: string;
}

export const createExecutionStore = ({ machines, faults, region, account }: ExecutionStoreOptions) => {
  const executions = new Map<string, ExecutionRecord>();

  const recordOf = (executionArn: unknown): ExecutionRecord => {
    const record = typeof executionArn === 'string' ? executions.get(executionArn) : undefined;
    if (!record) throw new StepFunctionsApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${String(executionArn)}'`);
    return record;
  };

  const run = (record: ExecutionRecord, machine: LocalMachine, input: unknown): void => {
    const execution = machine.stateMachine.run(input as Parameters<StateMachine['run']>[0], {
      overrides: {
        taskResourceLocalHandlers: localTaskHandlers({
          handlers: machine.taskHandlers,
          faults,
          executionInput: input,
          stopped: () => record.status !== 'RUNNING',
        }),
      },
      context: {
        Execution: { Id: record.executionArn, Name: record.name },
        StateMachine: { Id: machine.arn, Name: machine.name },
      },
    });
    record.abort = execution.abort;
    // Final once both the result and the event log (closed by the library at the end) are in.
    void Promise.allSettled([execution.result, countEvents(execution.eventLogs, record)]).then(([result]) => {
      if (record.status !== 'RUNNING') return; // stopped meanwhile
      Object.assign(record, outcomeOf(result), { stoppedMs: Date.now() });
    });
  };

  /**
   * AWS's rules for a Standard machine: the same name and input as a running execution is answered
   * as that one was; a different input, or any input once that execution has closed, is refused.
   */
  const start = (request: { stateMachineArn?: unknown; name?: unknown; input?: unknown }) => {
    const machine = typeof request.stateMachineArn === 'string' ? machines.get(request.stateMachineArn) : undefined;
    if (!machine)
      throw new StepFunctionsApiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${String(request.stateMachineArn)}'`);
    const name = request.name === undefined ? randomUUID() : request.name;
    if (typeof name !== 'string' || !validName.test(name))
      throw new StepFunctionsApiError('InvalidName', `Invalid Name: '${String(name)}'`);
    const input = request.input === undefined ? '{}' : request.input;
    if (typeof input !== 'string')
      throw new StepFunctionsApiError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not a string');
    const parsedInput = parseInput(input);

    const executionArn = `arn:aws:states:${region}:${account}:execution:${machine.name}:${name}`;
    const existing = executions.get(executionArn);
    if (existing) {
      if (existing.status === 'RUNNING' && existing.input === input) return { executionArn, startDate: toEpochSeconds(existing.startedMs) };
      throw new StepFunctionsApiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }

    const record: ExecutionRecord = {
      executionArn,
      stateMachineArn: machine.arn,
      stateMachineName: machine.name,
      name,
      input,
      status: 'RUNNING',
      transitions: 0,
      retries: 0,
      startedMs: Date.now(),
      stoppedMs: undefined,
      abort: () => undefined,
    };
    executions.set(executionArn, record);
    run(record, machine, parsedInput);
    return { executionArn, startDate: toEpochSeconds(record.startedMs) };
  };

  const stop = (request: { executionArn?: unknown; error?: unknown; cause?: unknown }) => {
    const record = recordOf(request.executionArn);
    if (record.status === 'RUNNING') {
      Object.assign(record, {
        status: 'ABORTED',
        stoppedMs: Date.now(),
        error: typeof request.error === 'string' ? request.error : undefined,
        cause: typeof request.cause === 'string' ? request.cause : undefined,
      });
      // A Task already running finishes (as its Lambda would); no further state starts.
      record.abort();
    }
    return { stopDate: toEpochSeconds(record.stoppedMs ?? Date.now()) };
  };

  const describe = (request: { executionArn?: unknown }) => {
    const record = recordOf(request.executionArn);
    return {
      executionArn: record.executionArn,
      stateMachineArn: record.stateMachineArn,
      name: record.name,
      status: record.status,
      startDate: toEpochSeconds(record.startedMs),
      ...(record.stoppedMs !== undefined && { stopDate: toEpochSeconds(record.stoppedMs) }),
      input: record.input,
      inputDetails: { included: true },
      ...(record.output !== undefined && { output: record.output, outputDetails: { included: true } }),
      ...(record.error !== undefined && { error: record.error }),
      ...(record.cause !== undefined && { cause: record.cause }),
    };
  };

  return {
    start,
    stop,
    describe,

    summaries(): ExecutionSummary[] {
      return [...executions.values()].map(
        ({ executionArn, stateMachineName, name, status, transitions, retries, startedMs, stoppedMs }) => ({
          executionArn,
          stateMachineName,
          name,
          status,
          transitions,
          retries,
          startedMs,
          stoppedMs,
        }),
      );
    },

    /** Aborts every running execution, as stopping the runtime must leave no timer behind. */
    stopAll(): void {
      for (const record of executions.values()) {
        if (record.status === 'RUNNING')
          stop({ executionArn: record.executionArn, error: 'States.Runtime', cause: 'The local runtime stopped' });
      }
    },
  };
};

export type ExecutionStore = ReturnType<typeof createExecutionStore>;
