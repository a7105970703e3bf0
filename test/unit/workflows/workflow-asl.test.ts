import { fileURLToPath } from 'node:url';
import type { DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import { itValidatesDefinition, type LocalMachine, runToEnd, startLocalMachine, stubFunctionArn } from '../step-functions/local-machine';

/**
 * The real workflow state machine, run by the local Step Functions endpoint with stub Lambda
 * functions that behave as the real handlers answer (budget from start, {passed} from verify,
 * the spent budget from iterate) and record every call.
 */

const definitionFile = fileURLToPath(new URL('../../../state-machines/workflow.asl.json', import.meta.url));

const arns = {
  control: stubFunctionArn('workflow-control'),
  intake: stubFunctionArn('intake'),
  build: stubFunctionArn('build'),
  verify: stubFunctionArn('verify'),
  prove: stubFunctionArn('prove'),
  iterate: stubFunctionArn('iterate'),
  package: stubFunctionArn('package'),
};
const substitutions = {
  WorkflowControlFunctionArn: arns.control,
  IntakeFunctionArn: arns.intake,
  BuildFunctionArn: arns.build,
  VerifyFunctionArn: arns.verify,
  ProveFunctionArn: arns.prove,
  IterateFunctionArn: arns.iterate,
  PackageFunctionArn: arns.package,
};

type StageFunction = 'intake' | 'build' | 'verify' | 'prove' | 'iterate' | 'package';

interface Call {
  /** `control:<action>` or the stage function's name. */
  name: string;
  input: Record<string, unknown>;
}

class NamedError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface Scenario {
  /** What verify answers on each call; the last value repeats. */
  verifyPasses: boolean[];
  /** Iterate's AI fix leaves no change (it answers `no_change: true`). */
  fixLeavesNoChange?: boolean;
  /** A stage function that throws: `times` calls (Infinity: always) throw an error named `name`, then it succeeds. */
  throwing?: { stage: StageFunction; name: string; message: string; times: number };
  /** Package started a deployment (auto_deploy): what each look at it answers; the last repeats. */
  autoDeploy?: ({ finished: boolean } | { throws: string })[];
}

const workflowRef = { account_id: 'acct_1', mode: 'test', id: 'wf_x', project_id: 'proj_1' };

const harness = () => {
  const calls: Call[] = [];
  const scenario: Scenario = { verifyPasses: [true] };
  let verifyCalls = 0;
  let autoDeployChecks = 0;
  const thrown = new Map<StageFunction, number>();

  const maybeThrow = (stage: StageFunction) => {
    const throwing = scenario.throwing;
    if (!throwing || throwing.stage !== stage) return;
    const count = thrown.get(stage) ?? 0;
    if (count >= throwing.times) return;
    thrown.set(stage, count + 1);
    throw new NamedError(throwing.name, throwing.message);
  };

  const stage =
    (name: StageFunction, answer: (input: Record<string, unknown>) => unknown = () => null) =>
    async (raw: unknown) => {
      const input = raw as Record<string, unknown>;
      calls.push({ name, input });
      maybeThrow(name);
      return answer(input);
    };

  const handlers = {
    [arns.control]: async (raw: unknown) => {
      const input = raw as Record<string, unknown>;
      calls.push({ name: `control:${String(input.action)}`, input });
      if (input.action === 'start') return { remaining: input.max_iterations, used: 0 };
      if (input.action === 'check_auto_deploy') {
        const answers = scenario.autoDeploy ?? [];
        const answer = answers[Math.min(autoDeployChecks, answers.length - 1)] ?? { finished: true };
        autoDeployChecks += 1;
        if ('throws' in answer) throw new NamedError('Error', answer.throws);
        return answer;
      }
      return null;
    },
    [arns.intake]: stage('intake'),
    [arns.build]: stage('build'),
    [arns.verify]: stage('verify', () => {
      const passed = scenario.verifyPasses[Math.min(verifyCalls, scenario.verifyPasses.length - 1)] ?? true;
      verifyCalls += 1;
      return { passed };
    }),
    [arns.prove]: stage('prove'),
    [arns.iterate]: stage('iterate', (input) => {
      const { remaining, used } = input.iteration as { remaining: number; used: number };
      return { remaining: remaining - 1, used: used + 1, ...(scenario.fixLeavesNoChange ? { no_change: true } : {}) };
    }),
    [arns.package]: stage('package', () => ({
      auto_deploy: scenario.autoDeploy ? { started: true, deployment_id: 'dep_1' } : { started: false, deployment_id: null },
    })),
  };
  return { calls, scenario, handlers };
};

describe('state-machines/workflow.asl.json', () => {
  itValidatesDefinition(definitionFile, substitutions, 'PackageFunctionArn');
});

describe('the workflow state machine, run locally', () => {
  let machine: LocalMachine;
  let stub: ReturnType<typeof harness>;

  beforeEach(async () => {
    stub = harness();
    machine = await startLocalMachine({ name: 'workflow', definitionFile, substitutions, taskHandlers: stub.handlers });
  });

  afterEach(() => machine.close());

  const run = (maxIterations: number): Promise<DescribeExecutionCommandOutput> =>
    runToEnd(machine.client, machine.stateMachineArn, { workflow: workflowRef, max_iterations: maxIterations }, 'wf_x', () =>
      stub.calls.map((c) => c.name).join(' → '),
    );

  const names = () => stub.calls.map((call) => call.name);
  const callsOf = (name: string) => stub.calls.filter((call) => call.name === name);

  it('verification passing the first time: every stage once, iterate skipped, then complete; SUCCEEDED', async () => {
    const described = await run(2);
    expect(names()).toEqual(['control:start', 'intake', 'build', 'verify', 'prove', 'control:skip_stage', 'package', 'control:complete']);
    expect(described.status).toBe('SUCCEEDED');

    expect(callsOf('control:start')[0]?.input).toEqual({ action: 'start', workflow: workflowRef, max_iterations: 2 });
    expect(callsOf('control:skip_stage')[0]?.input).toEqual({ action: 'skip_stage', stage: 'iterate', workflow: workflowRef });
    expect(callsOf('control:complete')[0]?.input).toEqual({ action: 'complete', workflow: workflowRef });
    for (const stage of ['intake', 'build', 'verify', 'prove', 'package'])
      expect(callsOf(stage)[0]?.input).toEqual({ workflow: workflowRef });
    expect(JSON.parse(described.output ?? 'null')).toMatchObject({ iteration: { remaining: 2, used: 0 }, verification: { passed: true } });
  });

  it('verification failing once: iterate with the whole budget, verify and prove again, then package; no skip', async () => {
    stub.scenario.verifyPasses = [false, true];
    const described = await run(2);
    expect(names()).toEqual([
      'control:start',
      'intake',
      'build',
      'verify',
      'prove',
      'iterate',
      'verify',
      'prove',
      'package',
      'control:complete',
    ]);
    expect(described.status).toBe('SUCCEEDED');
    expect(callsOf('iterate')[0]?.input).toEqual({ workflow: workflowRef, iteration: { remaining: 2, used: 0 } });
    expect(JSON.parse(described.output ?? 'null')).toMatchObject({ iteration: { remaining: 1, used: 1 } });
  });

  it('verification passing on the last allowed round: iterates max_iterations times and completes', async () => {
    stub.scenario.verifyPasses = [false, false, true];
    const described = await run(2);
    expect(described.status).toBe('SUCCEEDED');
    expect(callsOf('iterate').map((call) => call.input.iteration)).toEqual([
      { remaining: 2, used: 0 },
      { remaining: 1, used: 1 },
    ]);
    expect(names().slice(-2)).toEqual(['package', 'control:complete']);
    expect(callsOf('control:fail')).toEqual([]);
  });

  it('verification always failing: iterates max_iterations times, then records VerificationFailed on verify; FAILED', async () => {
    stub.scenario.verifyPasses = [false];
    const described = await run(2);
    expect(names()).toEqual([
      'control:start',
      'intake',
      'build',
      'verify',
      'prove',
      'iterate',
      'verify',
      'prove',
      'iterate',
      'verify',
      'prove',
      'control:fail',
    ]);
    expect(callsOf('iterate')).toHaveLength(2);
    const [fail] = callsOf('control:fail');
    expect(fail?.input).toEqual({
      action: 'fail',
      workflow: workflowRef,
      error: { Error: 'VerificationFailed', stage: 'verify', Cause: expect.any(String) },
    });
    expect(((fail?.input.error as { Cause: string }) ?? { Cause: '' }).Cause.length).toBeGreaterThan(0);
    expect(callsOf('package')).toEqual([]);
    expect(callsOf('control:complete')).toEqual([]);
    expect(described).toMatchObject({ status: 'FAILED', error: 'WorkflowFailed' });
  });

  it('an iteration whose fix leaves no change: VerificationFailed on verify, without verifying again; FAILED', async () => {
    stub.scenario.verifyPasses = [false];
    stub.scenario.fixLeavesNoChange = true;
    const described = await run(2);
    expect(names()).toEqual(['control:start', 'intake', 'build', 'verify', 'prove', 'iterate', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toEqual({
      Error: 'VerificationFailed',
      stage: 'verify',
      Cause: expect.stringContaining('the AI fix left no change'),
    });
    expect(described).toMatchObject({ status: 'FAILED', error: 'WorkflowFailed' });
  });

  it('verification failing with max_iterations 0: no iterate at all, straight to VerificationFailed', async () => {
    stub.scenario.verifyPasses = [false];
    const described = await run(0);
    expect(names()).toEqual(['control:start', 'intake', 'build', 'verify', 'prove', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toMatchObject({ Error: 'VerificationFailed', stage: 'verify' });
    expect(described.status).toBe('FAILED');
  });

  it('a stage throwing another error: recorded with its name and message, no later stage runs; FAILED', async () => {
    stub.scenario.throwing = { stage: 'build', name: 'Boom', message: 'the change set could not be applied', times: Infinity };
    const described = await run(2);
    // Not a retried error: build runs once.
    expect(names()).toEqual(['control:start', 'intake', 'build', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input).toEqual({
      action: 'fail',
      workflow: workflowRef,
      error: { Error: 'Boom', Cause: 'the change set could not be applied' },
    });
    expect(described).toMatchObject({ status: 'FAILED', error: 'WorkflowFailed' });
  });

  it('a transient AI error twice: the stage is retried and the workflow completes', async () => {
    stub.scenario.throwing = { stage: 'intake', name: 'AiProviderTransientError', message: 'throttled', times: 2 };
    const described = await run(2);
    expect(callsOf('intake')).toHaveLength(3);
    expect(callsOf('control:fail')).toEqual([]);
    expect(names().slice(-2)).toEqual(['package', 'control:complete']);
    expect(described.status).toBe('SUCCEEDED');
    expect(machine.local.executions()[0]).toMatchObject({ status: 'SUCCEEDED', retries: 2 });
  });

  it('a transient AI error every time: retried MaxAttempts (3) times, then recorded as a failure; FAILED', async () => {
    stub.scenario.throwing = { stage: 'verify', name: 'AiProviderTransientError', message: 'still throttled', times: Infinity };
    const described = await run(2);
    expect(callsOf('verify')).toHaveLength(4); // the first call and 3 retries
    expect(names()).toEqual(['control:start', 'intake', 'build', 'verify', 'verify', 'verify', 'verify', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toEqual({ Error: 'AiProviderTransientError', Cause: 'still throttled' });
    expect(described).toMatchObject({ status: 'FAILED', error: 'WorkflowFailed' });
  });

  it('auto_deploy: package starts the deployment, the machine waits and looks until it has finished, then completes', async () => {
    stub.scenario.autoDeploy = [{ finished: false }, { finished: false }, { finished: true }];
    const described = await run(2);
    expect(names().slice(-5)).toEqual([
      'package',
      'control:check_auto_deploy',
      'control:check_auto_deploy',
      'control:check_auto_deploy',
      'control:complete',
    ]);
    expect(callsOf('control:check_auto_deploy')[0]?.input).toEqual({
      action: 'check_auto_deploy',
      workflow: workflowRef,
      deployment_id: 'dep_1',
    });
    expect(described.status).toBe('SUCCEEDED');
  });

  it('auto_deploy: a deployment that failed fails the package stage with its reason; FAILED', async () => {
    stub.scenario.autoDeploy = [{ finished: false }, { throws: 'auto deploy dep_1 failed: unhealthy' }];
    const described = await run(2);
    expect(names().slice(-3)).toEqual(['control:check_auto_deploy', 'control:check_auto_deploy', 'control:fail']);
    expect(callsOf('control:fail')[0]?.input.error).toMatchObject({ stage: 'package', Cause: expect.stringContaining('unhealthy') });
    expect(callsOf('control:complete')).toEqual([]);
    expect(described).toMatchObject({ status: 'FAILED', error: 'WorkflowFailed' });
  });
});
