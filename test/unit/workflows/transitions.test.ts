import { ApiError } from '../../../functions/core/errors';
import { statusOf } from '../../../functions/http/error-status';
import { stageNames, type StageName } from '../../../functions/core/workflows/stage-data';
import {
  cancelRun,
  completeRun,
  completeStage,
  failRun,
  skipStage,
  startRun,
  startStage,
  WorkflowNotRunning,
  workflowSnapshot,
} from '../../../functions/core/workflows/transitions';
import { newWorkflow, type StageStatus, type Workflow } from '../../../functions/core/workflows/workflow';

const t0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (offsetMs: number) => new Date(t0 + offsetMs).toISOString();

const queued = (): Workflow =>
  newWorkflow({
    id: 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1E',
    project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
    name: 'Add rate limiting',
    prompt: 'Add rate limiting to the API',
    config: { ai_provider: 'anthropic', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    now: at(0),
  });

const running = (): Workflow => startRun(queued(), at(1_000)).workflow;

/** A running workflow whose stages before `stage` completed and `stage` runs. */
const runningAt = (stage: StageName): Workflow => {
  let workflow = running();
  for (const earlier of stageNames.slice(0, stageNames.indexOf(stage))) {
    workflow = startStage(workflow, earlier, at(2_000)).workflow;
    workflow = completeStage(workflow, earlier, {}, at(3_000)).workflow;
  }
  return startStage(workflow, stage, at(4_000)).workflow;
};

/** Every stage completed (iterate skipped), still running. */
const allStagesDone = (): Workflow => {
  let workflow = running();
  for (const stage of stageNames) {
    if (stage === 'iterate') {
      workflow = skipStage(workflow, stage, at(5_000)).workflow;
      continue;
    }
    workflow = startStage(workflow, stage, at(2_000)).workflow;
    workflow = completeStage(workflow, stage, {}, at(3_000)).workflow;
  }
  return workflow;
};

const statuses = (workflow: Workflow): StageStatus[] => stageNames.map((stage) => workflow.stage_statuses[stage]);

describe('startRun', () => {
  it('turns a queued workflow running, with started_at and a workflow.started event carrying the snapshot', () => {
    const before = queued();
    const { workflow, events } = startRun(before, at(1_000));
    expect(workflow.status).toBe('running');
    expect(workflow.started_at).toBe(at(1_000));
    expect(workflow.updated_at).toBe(at(1_000));
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toEqual([{ type: 'workflow.started', data: workflowSnapshot(workflow) }]);
    expect(events[0]?.data).toMatchObject({ id: before.id, project_id: before.project_id, status: 'running', started_at: at(1_000) });
    // The snapshot leaves out the prompt and the bookkeeping.
    expect(events[0]?.data).not.toHaveProperty('prompt');
    expect(events[0]?.data).not.toHaveProperty('version');
    // Pure: the record it started from is unchanged.
    expect(before.status).toBe('queued');
  });

  it('changes nothing for a workflow already running (a retried start)', () => {
    const workflow = running();
    const result = startRun(workflow, at(9_000));
    expect(result.workflow).toBe(workflow);
    expect(result.events).toEqual([]);
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('refuses a %s workflow with WorkflowNotRunning', (status) => {
    expect(() => startRun({ ...queued(), status }, at(1_000))).toThrow(WorkflowNotRunning);
  });
});

describe('startStage and completeStage', () => {
  it('marks the stage running with its start and one more run, without an event', () => {
    const before = running();
    const { workflow, events } = startStage(before, 'intake', at(2_000));
    expect(workflow.stage_statuses.intake).toBe('running');
    expect(workflow.stage_timings.intake).toEqual({ started_at: at(2_000), completed_at: null, duration_ms: null, runs: 1 });
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toEqual([]);
    expect(statuses(workflow).slice(1)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('keeps the start of a stage already running (a retried attempt)', () => {
    const first = startStage(running(), 'intake', at(2_000)).workflow;
    const again = startStage(first, 'intake', at(2_500));
    expect(again.workflow).toBe(first);
    expect(again.workflow.stage_timings.intake).toMatchObject({ started_at: at(2_000), runs: 1 });
  });

  it('refuses to start a stage of a workflow that is not running', () => {
    expect(() => startStage(queued(), 'intake', at(2_000))).toThrow(WorkflowNotRunning);
    const cancelled = cancelRun(running(), at(1_500)).workflow;
    expect(() => startStage(cancelled, 'intake', at(2_000))).toThrow(WorkflowNotRunning);
  });

  it('completes a stage with its timing, merged outputs and an event {workflow_id, stage, status, duration_ms}', () => {
    const started = startStage(running(), 'build', at(2_000)).workflow;
    const withPlan = { ...started, outputs: { ...started.outputs, plan: { summary: 'plan', steps: ['one'] }, commit: 'abc' } };
    const { workflow, events } = completeStage(withPlan, 'build', { outputs: { commit: 'def', branch: 'feature' } }, at(2_750));
    expect(workflow.stage_statuses.build).toBe('completed');
    expect(workflow.stage_timings.build).toEqual({ started_at: at(2_000), completed_at: at(2_750), duration_ms: 750, runs: 1 });
    // Merged: the new outputs win, the others stay.
    expect(workflow.outputs).toMatchObject({
      plan: { summary: 'plan', steps: ['one'] },
      commit: 'def',
      branch: 'feature',
      docker_image: null,
    });
    expect(workflow.version).toBe(withPlan.version + 1);
    expect(workflow.updated_at).toBe(at(2_750));
    expect(events).toEqual([
      { type: 'workflow.stage.completed', data: { workflow_id: withPlan.id, stage: 'build', status: 'completed', duration_ms: 750 } },
    ]);
  });

  it('adds up AI usage over stages: tokens, calls, latest provider and model', () => {
    let workflow = startStage(running(), 'intake', at(2_000)).workflow;
    workflow = completeStage(
      workflow,
      'intake',
      { usage: { input_tokens: 100, output_tokens: 20, provider: 'anthropic', model: 'claude-a' } },
      at(2_100),
    ).workflow;
    workflow = startStage(workflow, 'build', at(2_200)).workflow;
    workflow = completeStage(
      workflow,
      'build',
      { usage: { input_tokens: 50, output_tokens: 5, provider: 'openai', model: 'gpt-b' } },
      at(2_300),
    ).workflow;
    expect(workflow.ai_usage).toEqual({
      input_tokens: 150,
      output_tokens: 25,
      total_tokens: 175,
      provider: 'openai',
      model: 'gpt-b',
      calls: 2,
    });
    // A stage without usage leaves it alone.
    workflow = startStage(workflow, 'verify', at(2_400)).workflow;
    workflow = completeStage(workflow, 'verify', {}, at(2_500)).workflow;
    expect(workflow.ai_usage).toMatchObject({ total_tokens: 175, calls: 2 });
  });

  it('counts every run of a stage that runs again after an iteration, with the latest run timed', () => {
    let workflow = runningAt('verify');
    workflow = completeStage(workflow, 'verify', {}, at(4_100)).workflow;
    expect(workflow.stage_timings.verify).toMatchObject({ runs: 1, duration_ms: 100 });
    workflow = startStage(workflow, 'verify', at(6_000)).workflow;
    expect(workflow.stage_statuses.verify).toBe('running');
    expect(workflow.stage_timings.verify).toEqual({ started_at: at(6_000), completed_at: null, duration_ms: null, runs: 2 });
    workflow = completeStage(workflow, 'verify', {}, at(6_400)).workflow;
    expect(workflow.stage_timings.verify).toEqual({ started_at: at(6_000), completed_at: at(6_400), duration_ms: 400, runs: 2 });
  });

  it('refuses to complete a stage that is not running, or of a workflow no longer running', () => {
    expect(() => completeStage(running(), 'build', {}, at(2_000))).toThrow(WorkflowNotRunning);
    const cancelled = cancelRun(runningAt('build'), at(4_500)).workflow;
    expect(() => completeStage(cancelled, 'build', {}, at(5_000))).toThrow(WorkflowNotRunning);
  });
});

describe('skipStage', () => {
  it('records a pending stage as skipped with a stage.completed event of status skipped', () => {
    // As the state machine does when verification passed the first time: prove done, iterate skipped.
    const before = completeStage(runningAt('prove'), 'prove', {}, at(4_200)).workflow;
    const { workflow, events } = skipStage(before, 'iterate', at(5_000));
    expect(workflow.stage_statuses.iterate).toBe('skipped');
    expect(statuses(workflow)).toEqual(['completed', 'completed', 'completed', 'completed', 'skipped', 'pending']);
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toEqual([
      { type: 'workflow.stage.completed', data: { workflow_id: before.id, stage: 'iterate', status: 'skipped', duration_ms: 0 } },
    ]);
  });

  it('changes nothing for a stage that is no longer pending', () => {
    let ran = runningAt('iterate');
    ran = completeStage(ran, 'iterate', {}, at(4_500)).workflow;
    const result = skipStage(ran, 'iterate', at(5_000));
    expect(result.workflow).toBe(ran);
    expect(result.events).toEqual([]);
  });

  it('refuses a workflow that is not running', () => {
    expect(() => skipStage(queued(), 'iterate', at(5_000))).toThrow(WorkflowNotRunning);
  });
});

describe('completeRun', () => {
  it('completes a workflow whose stages all finished, with the spec-shaped workflow.completed event', () => {
    const done = allStagesDone();
    const before = {
      ...done,
      outputs: { ...done.outputs, docker_image: 'registry.example/app:abc', deployment_url: 'https://app.example', commit: 'abc' },
    };
    const { workflow, events } = completeRun(before, at(61_000));
    expect(workflow.status).toBe('completed');
    expect(workflow.completed_at).toBe(at(61_000));
    expect(workflow.duration_ms).toBe(60_000); // from started_at, not created_at
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.type).toBe('workflow.completed');
    expect(Object.keys(event?.data ?? {}).sort()).toEqual(['duration_ms', 'outputs', 'project_id', 'stages', 'status', 'workflow_id']);
    expect(event?.data).toEqual({
      workflow_id: before.id,
      project_id: before.project_id,
      status: 'completed',
      duration_ms: 60_000,
      stages: {
        intake: 'completed',
        build: 'completed',
        verify: 'completed',
        prove: 'completed',
        iterate: 'skipped',
        package: 'completed',
      },
      outputs: { docker_image: 'registry.example/app:abc', deployment_url: 'https://app.example' },
    });
    expect(Object.keys((event?.data.outputs as object) ?? {}).sort()).toEqual(['deployment_url', 'docker_image']);
  });

  it('reports null docker_image and deployment_url when none were produced', () => {
    const { events } = completeRun(allStagesDone(), at(61_000));
    expect(events[0]?.data.outputs).toEqual({ docker_image: null, deployment_url: null });
  });

  it('refuses while a stage is unfinished', () => {
    expect(() => completeRun(runningAt('package'), at(61_000))).toThrow(/package/);
  });

  it('refuses a workflow that is not running', () => {
    const cancelled = cancelRun(runningAt('package'), at(60_000)).workflow;
    expect(() => completeRun(cancelled, at(61_000))).toThrow(WorkflowNotRunning);
  });
});

describe('failRun', () => {
  it('fails the named stage, skips the later ones and leaves the earlier ones as they were', () => {
    // Verification failed for good: verify had completed, prove too; iterate ran.
    let before = runningAt('iterate');
    before = completeStage(before, 'iterate', {}, at(4_500)).workflow;
    const { workflow, events } = failRun(before, { stage: 'verify', message: 'Verification still fails' }, at(10_000));
    expect(workflow.status).toBe('failed');
    expect(workflow.error).toEqual({ stage: 'verify', message: 'Verification still fails' });
    // Completed later stages stay completed; only pending or running ones are skipped.
    expect(statuses(workflow)).toEqual(['completed', 'completed', 'failed', 'completed', 'completed', 'skipped']);
    // verify was not running: its timing stays the completed run's.
    expect(workflow.stage_timings.verify).toEqual(before.stage_timings.verify);
    expect(workflow.completed_at).toBe(at(10_000));
    expect(workflow.duration_ms).toBe(9_000);
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toEqual([{ type: 'workflow.failed', data: workflowSnapshot(workflow) }]);
    expect(events[0]?.data).toMatchObject({ status: 'failed', error: { stage: 'verify', message: 'Verification still fails' } });
  });

  it('without a stage, fails the one running (timing closed) and skips every later one', () => {
    const before = runningAt('build');
    const { workflow } = failRun(before, { message: 'boom' }, at(4_300));
    expect(statuses(workflow)).toEqual(['completed', 'failed', 'skipped', 'skipped', 'skipped', 'skipped']);
    expect(workflow.stage_timings.build).toEqual({ started_at: at(4_000), completed_at: at(4_300), duration_ms: 300, runs: 1 });
    expect(workflow.stage_timings.intake).toEqual(before.stage_timings.intake);
    expect(workflow.error).toEqual({ stage: 'build', message: 'boom' });
  });

  it('without a stage and none running, fails the first pending one (a failure before it marked itself running)', () => {
    let before = runningAt('build');
    before = completeStage(before, 'build', {}, at(4_100)).workflow;
    const { workflow } = failRun(before, { message: 'verify could not start' }, at(5_000));
    expect(statuses(workflow)).toEqual(['completed', 'completed', 'failed', 'skipped', 'skipped', 'skipped']);
    expect(workflow.error).toEqual({ stage: 'verify', message: 'verify could not start' });
    // verify never ran: no timing invented.
    expect(workflow.stage_timings.verify).toEqual({ started_at: null, completed_at: null, duration_ms: null, runs: 0 });
  });

  it('fails a queued workflow (never started) at its first stage, timed from its creation', () => {
    const { workflow } = failRun(queued(), { message: 'could not be started' }, at(500));
    expect(workflow.status).toBe('failed');
    expect(statuses(workflow)).toEqual(['failed', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    expect(workflow.duration_ms).toBe(500);
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('changes nothing on a %s workflow', (status) => {
    const finished = { ...running(), status };
    const result = failRun(finished, { stage: 'build', message: 'late' }, at(9_000));
    expect(result.workflow).toBe(finished);
    expect(result.events).toEqual([]);
  });
});

describe('cancelRun', () => {
  it('cancels a running workflow: running and pending stages cancelled, finished ones kept', () => {
    let before = runningAt('verify');
    before = skipStage(before, 'iterate', at(4_100)).workflow;
    const { workflow, events } = cancelRun(before, at(8_000));
    expect(workflow.status).toBe('cancelled');
    expect(statuses(workflow)).toEqual(['completed', 'completed', 'cancelled', 'cancelled', 'skipped', 'cancelled']);
    expect(workflow.completed_at).toBe(at(8_000));
    expect(workflow.duration_ms).toBe(7_000);
    expect(workflow.version).toBe(before.version + 1);
    expect(events).toEqual([{ type: 'workflow.cancelled', data: workflowSnapshot(workflow) }]);
  });

  it('cancels a queued workflow: every stage cancelled', () => {
    const { workflow } = cancelRun(queued(), at(300));
    expect(workflow.status).toBe('cancelled');
    expect(statuses(workflow)).toEqual(Array(6).fill('cancelled'));
    expect(workflow.duration_ms).toBe(300);
  });

  it('answers a 409 once every stage has finished and the run is only being completed', () => {
    expect(() => cancelRun(allStagesDone(), at(60_000))).toThrow(/can no longer be cancelled/);
  });

  it('cancels a workflow whose stages have finished while it waits for the deployment auto_deploy started', () => {
    const waiting = allStagesDone();
    const { workflow } = cancelRun({ ...waiting, outputs: { ...waiting.outputs, deployment_id: 'dep_1' } }, at(60_000));
    expect(workflow.status).toBe('cancelled');
    expect(statuses(workflow)).toEqual(statuses(waiting));
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('answers a %s workflow with a 409 conflict', (status) => {
    let error: unknown;
    try {
      cancelRun({ ...running(), status }, at(9_000));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'conflict' });
    expect(statusOf(error as ApiError)).toBe(409);
    expect((error as ApiError).message).toContain(status);
  });
});

describe('versions', () => {
  it('go up by exactly one per change over a whole run', () => {
    let workflow = queued();
    expect(workflow.version).toBe(1);
    const steps: Array<(w: Workflow) => Workflow> = [
      (w) => startRun(w, at(1_000)).workflow,
      ...stageNames.flatMap((stage): Array<(w: Workflow) => Workflow> =>
        stage === 'iterate'
          ? [(w) => skipStage(w, stage, at(2_000)).workflow]
          : [(w) => startStage(w, stage, at(2_000)).workflow, (w) => completeStage(w, stage, {}, at(3_000)).workflow],
      ),
      (w) => completeRun(w, at(4_000)).workflow,
    ];
    for (const step of steps) {
      const next = step(workflow);
      expect(next.version).toBe(workflow.version + 1);
      workflow = next;
    }
    expect(workflow.version).toBe(1 + steps.length);
  });
});
