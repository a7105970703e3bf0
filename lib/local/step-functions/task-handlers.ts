import type { RunOptions } from 'aws-local-stepfunctions';
import type { FaultInjector } from './fault-rules';

/** What a Task's Lambda function does: the task's effective input in, the task result out. */
export type TaskHandler = (input: unknown) => Promise<unknown>;

type LocalHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
type JsonValue = Parameters<LocalHandlers[string]>[0];

/**
 * aws-local-stepfunctions matches Retry/Catch ErrorEquals against a thrown error's `name` and uses its
 * `message` as the Cause; a fresh plain Error carries exactly those two (no `cause` that would
 * replace the message in its event log).
 */
export const stepFunctionsError = (name: string, cause: string): Error => {
  const error = new Error(cause);
  error.name = name;
  return error;
};

const asStepFunctionsError = (thrown: unknown): Error =>
  thrown instanceof Error ? stepFunctionsError(thrown.name || 'Error', thrown.message) : stepFunctionsError('Error', String(thrown));

/** Lambda sees JSON in and out; the copy also keeps a handler that mutates its input away from the run's state. */
const throughJson = (value: unknown): JsonValue => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

export interface TaskInvocation {
  /** Task state name → the handler of its Resource. */
  handlers: Map<string, TaskHandler>;
  faults: FaultInjector;
  executionInput: unknown;
  /** True once the execution was stopped: a pending retry must not call the handler again. */
  stopped: () => boolean;
}

/** The `taskResourceLocalHandlers` override of one execution. */
export const localTaskHandlers = ({ handlers, faults, executionInput, stopped }: TaskInvocation): LocalHandlers =>
  Object.fromEntries(
    [...handlers].map(([state, handler]) => [
      state,
      async (input: JsonValue): Promise<JsonValue> => {
        if (stopped()) throw stepFunctionsError('States.Runtime', 'The execution was stopped');
        const fault = faults.take(state, input, executionInput);
        if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (fault?.error !== undefined) throw stepFunctionsError(fault.error, fault.cause ?? '');
        if (stopped()) throw stepFunctionsError('States.Runtime', 'The execution was stopped');
        try {
          return throughJson(await handler(throughJson(input)));
        } catch (error) {
          throw asStepFunctionsError(error);
        }
      },
    ]),
  );
