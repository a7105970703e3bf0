import type { BenchRuntime } from './local-runtime';
import { type Figure, fixed, heading, printTable } from './report';
import { percentile, round } from './stats';
import {
  type CompletionReceiver,
  fixtureRepository,
  runConcurrent,
  runSequential,
  runWorkflow,
  stageNames,
  startCompletionReceiver,
  type WorkflowPath,
  type WorkflowRun,
  workflowTenant,
} from './workflow-runs';

/**
 * Section 5: AI workflows through the local runtime (`local` provider, fixture git repository),
 * from the POST to the arrival of their `workflow.completed` event at a webhook receiver; where the
 * time goes; Step Functions state transitions per workflow and what they cost in AWS.
 */

export interface WorkflowSettings {
  /** Workflows of each path run first and not measured (they load the stage modules, iterate's included). */
  warmup: Record<WorkflowPath, number>;
  sequential: number;
  concurrent: number;
  /** Workflows of the iterate path (a broken file: verify fails once), run one after the other. */
  iterate: number;
  /** How long to wait for one workflow's terminal event. */
  maxWaitMs: number;
  /** Step Functions Standard, USD per 1,000 state transitions (us-east-1, beyond the free tier). */
  pricePerThousandTransitionsUsd: number;
}

export interface Spread {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface WorkflowBatch {
  name: string;
  path: WorkflowPath;
  mode: 'sequential' | 'concurrent';
  workflows: number;
  /** Completed, with their workflow.completed event at the receiver. */
  completed: number;
  statuses: Record<string, number>;
  /** First POST sent → last workflow's record read back. */
  elapsedMs: number;
  /** POST sent → workflow.completed arrival. */
  totalMs: Spread;
  postMs: Spread;
  /** POST sent → the record's completed_at. */
  toCompletedMs: Spread;
  stageWorkMs: Spread;
  orchestrationMs: Spread;
  eventDeliveryMs: Spread;
  /** Per stage, the final record's duration_ms (the stages that ran). */
  stageMs: Record<string, Spread>;
  runs: WorkflowRun[];
}

export interface TransitionCost {
  path: WorkflowPath;
  workflows: number;
  /** States entered per workflow: min, max and mean over the path's executions. */
  entered: { min: number; max: number; mean: number };
  retries: { min: number; max: number; mean: number };
  /** Entered + retries, as AWS bills them. */
  billed: { min: number; max: number; mean: number };
  /** billed.mean × 1,000 × price / 1,000, free tier excluded. */
  usdPerThousandWorkflows: number;
  executionMs: Spread;
}

export interface WorkflowSection {
  /** POST → workflow.completed of the warm-up workflows, per path. */
  warmupMs: Record<WorkflowPath, number[]>;
  batches: WorkflowBatch[];
  transitions: TransitionCost[];
  /** Requests at the receiver that were not a terminal workflow event. */
  receiverStrays: number;
  figures: Figure[];
}

const spread = (values: readonly number[]): Spread => {
  const finite = values.filter(Number.isFinite);
  return {
    count: finite.length,
    p50: round(percentile(finite, 50)),
    p95: round(percentile(finite, 95)),
    max: round(finite.length > 0 ? Math.max(...finite) : Number.NaN),
  };
};

const range = (values: readonly number[]) => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { min: Number.NaN, max: Number.NaN, mean: Number.NaN };
  return { min: Math.min(...finite), max: Math.max(...finite), mean: round(finite.reduce((s, n) => s + n, 0) / finite.length, 2) };
};

const rangeText = (r: { min: number; max: number; mean: number }): string =>
  r.min === r.max ? String(r.min) : `${r.min}–${r.max} (mean ${fixed(r.mean, 2)})`;

const usd = (value: number): string => (Number.isFinite(value) ? `$${value.toFixed(value < 1 ? 3 : 2)}` : '—');

const countBy = (values: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

const batchOf = (name: string, path: WorkflowPath, mode: WorkflowBatch['mode'], runs: WorkflowRun[], elapsedMs: number): WorkflowBatch => {
  const good = runs.filter((r) => r.status === 'completed' && r.event === 'workflow.completed');
  const stageMs: Record<string, Spread> = {};
  for (const stage of stageNames) {
    const values = good.map((r) => r.stageMs[stage]).filter((ms): ms is number => ms !== null);
    if (values.length > 0) stageMs[stage] = spread(values);
  }
  return {
    name,
    path,
    mode,
    workflows: runs.length,
    completed: good.length,
    statuses: countBy(runs.map((r) => `${r.status}${r.event === undefined ? ' (no event)' : ''}`)),
    elapsedMs: round(elapsedMs),
    totalMs: spread(good.map((r) => r.totalMs)),
    postMs: spread(runs.map((r) => r.postMs)),
    toCompletedMs: spread(good.map((r) => r.toCompletedMs)),
    stageWorkMs: spread(good.map((r) => r.stageWorkMs)),
    orchestrationMs: spread(good.map((r) => r.orchestrationMs)),
    eventDeliveryMs: spread(good.map((r) => r.eventDeliveryMs)),
    stageMs,
    runs: runs.map((r) => ({ ...r, postMs: round(r.postMs), totalMs: round(r.totalMs) })),
  };
};

const transitionsOf = (path: WorkflowPath, runs: readonly WorkflowRun[], price: number): TransitionCost | undefined => {
  const ofPath = runs.filter((r) => r.path === path && r.execution.status === 'SUCCEEDED');
  if (ofPath.length === 0) return undefined;
  const billed = range(ofPath.map((r) => r.execution.billed));
  return {
    path,
    workflows: ofPath.length,
    entered: range(ofPath.map((r) => r.execution.transitions)),
    retries: range(ofPath.map((r) => r.execution.retries)),
    billed,
    usdPerThousandWorkflows: round(billed.mean * price, 4),
    executionMs: spread(ofPath.map((r) => r.execution.durationMs)),
  };
};

const statusText = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');

const printTotals = (batches: readonly WorkflowBatch[], warmupMs: Record<WorkflowPath, number[]>): void => {
  printTable(
    'Workflows: POST sent → its workflow.completed event arrives at a webhook receiver (local AI provider)',
    [
      { header: 'Run' },
      { header: 'Path' },
      { header: 'Workflows' },
      { header: 'Completed' },
      { header: 'p50 ms' },
      { header: 'p95 ms' },
      { header: 'max ms' },
      { header: 'POST p50 ms' },
      { header: 'All done s' },
      { header: 'Workflows/s' },
    ],
    batches.map((b) => [
      b.name,
      b.path,
      b.workflows,
      b.completed,
      fixed(b.totalMs.p50, 0),
      fixed(b.totalMs.p95, 0),
      fixed(b.totalMs.max, 0),
      fixed(b.postMs.p50, 1),
      fixed(b.elapsedMs / 1000, 2),
      fixed((b.completed / b.elapsedMs) * 1000, 2),
    ]),
    [
      'Measured to the arrival of the workflow.completed event at a webhook (test mode, 127.0.0.1) rather than by polling GET,',
      'so the figure includes the event’s delivery (stream → fan-out → queue → dispatch); the split below shows that part.',
      'sequential: one workflow at a time; concurrent: every POST sent at once. All done = first POST → last record read back.',
      `Warm-up (not counted; the first workflows load the stage modules): plain ${warmupMs.plain.map((ms) => fixed(ms, 0)).join(', ') || '—'} ms,` +
        ` iterate ${warmupMs.iterate.map((ms) => fixed(ms, 0)).join(', ') || '—'} ms.`,
      ...batches.filter((b) => b.completed < b.workflows).map((b) => `${b.name}: ${statusText(b.statuses)}.`),
    ],
  );
};

const printSplit = (batches: readonly WorkflowBatch[]): void => {
  const cell = (s: Spread | undefined, key: 'p50' | 'p95'): string => (s === undefined ? '—' : fixed(s[key], 0));
  const row = (label: string, pick: (b: WorkflowBatch) => Spread | undefined): (string | number)[] => [
    label,
    ...batches.flatMap((b) => [cell(pick(b), 'p50'), cell(pick(b), 'p95')]),
  ];
  printTable(
    'Where a workflow’s time goes (ms; p50s and p95s of each part, which do not add up exactly)',
    [
      { header: 'Part', align: 'left' },
      ...batches.flatMap((b) => [
        { header: `${b.name} p50`, align: 'right' as const },
        { header: `${b.name} p95`, align: 'right' as const },
      ]),
    ],
    [
      ...stageNames.map((stage) => row(`  stage ${stage}`, (b) => b.stageMs[stage])),
      row('stage work (sum of the stages)', (b) => b.stageWorkMs),
      row('orchestration', (b) => b.orchestrationMs),
      row('= POST → completed_at', (b) => b.toCompletedMs),
      row('event delivery (completed_at → arrival)', (b) => b.eventDeliveryMs),
      row('= POST → workflow.completed arrives', (b) => b.totalMs),
    ],
    [
      'Stage work: the final record’s stage_timings[*].duration_ms (a stage’s own mark-running → mark-done, its handler’s work).',
      'Orchestration: POST → completed_at minus stage work: the API call, starting the execution, Step Functions transitions, the',
      'control tasks (StartWorkflow, SkipIterate, CompleteWorkflow) and each stage’s DynamoDB reads and writes around its work.',
      'iterate path: verify and prove run twice but the record keeps the last run’s timing only, so their first runs count as',
      'orchestration there. Times from the service’s own timestamps (ms resolution) and this process’s clock (same machine).',
      'Locally the Task states call the handlers in this process (aws-local-stepfunctions): in AWS each would add a Lambda',
      'invocation (and its cold starts), and the 2 CPUs here are shared with DynamoDB Local’s JVM, which the concurrent run feels.',
    ],
  );
};

const printTransitions = (costs: readonly TransitionCost[], price: number): void => {
  printTable(
    'Step Functions state transitions per workflow (local executions) and their AWS price',
    [
      { header: 'Path' },
      { header: 'Workflows' },
      { header: 'States entered' },
      { header: 'Retries' },
      { header: 'Billed transitions' },
      { header: 'USD per 1,000 workflows' },
      { header: 'Execution p50 ms' },
    ],
    costs.map((c) => [
      c.path,
      c.workflows,
      rangeText(c.entered),
      rangeText(c.retries),
      rangeText(c.billed),
      usd(c.usdPerThousandWorkflows),
      fixed(c.executionMs.p50, 0),
    ]),
    [
      'plain: verification passes, iterate is skipped (StartWorkflow → Intake → Build → Verify → Prove → IterateOrPackage →',
      'SkipIterate → Package → AutoDeployStarted → CompleteWorkflow → Completed). iterate: a broken file and a good one; verify fails once, so',
      'IterateOrPackage → Iterate (drops the broken file) → Verify → Prove → IterateOrPackage → Package, without SkipIterate: +3.',
      'With auto_deploy, each look at the deployment adds WaitForAutoDeploy → CheckAutoDeploy → AutoDeployFinished: 3 per 10 s of deploying.',
      `Price: Step Functions Standard at $${price} per 1,000 state transitions (us-east-1); every retry is billed as one more transition.`,
      'The free tier (4,000 transitions a month) is not deducted. Not included: Lambda invocations and duration (one per Task',
      'state), DynamoDB, S3 artifacts, KMS signing, the webhook deliveries and the AI provider’s tokens.',
    ],
  );
};

const figuresOf = (batches: readonly WorkflowBatch[], costs: readonly TransitionCost[], price: number): Figure[] => {
  const figures: Figure[] = batches
    .filter((b) => b.path === 'plain')
    .map((b) => ({
      section: 'workflows',
      name: `POST → workflow.completed arrives, ${b.workflows} ${b.mode}`,
      value:
        `p50 ${fixed(b.totalMs.p50, 0)} ms, p95 ${fixed(b.totalMs.p95, 0)} ms, max ${fixed(b.totalMs.max, 0)} ms` +
        `${b.mode === 'concurrent' ? `, all done in ${fixed(b.elapsedMs / 1000, 2)} s` : ''}${b.completed < b.workflows ? ` (${statusText(b.statuses)})` : ''}`,
    }));
  const sequential = batches.find((b) => b.path === 'plain' && b.mode === 'sequential');
  if (sequential) {
    figures.push({
      section: 'workflows',
      name: 'split of a sequential workflow (p50)',
      value: `stage work ${fixed(sequential.stageWorkMs.p50, 0)} ms, orchestration ${fixed(sequential.orchestrationMs.p50, 0)} ms, event delivery ${fixed(sequential.eventDeliveryMs.p50, 0)} ms`,
    });
  }
  const plain = costs.find((c) => c.path === 'plain');
  const iterate = costs.find((c) => c.path === 'iterate');
  if (plain || iterate) {
    figures.push({
      section: 'workflows',
      name: 'Step Functions transitions per workflow (billed)',
      value: [plain && `plain ${rangeText(plain.billed)}`, iterate && `iterate loop once ${rangeText(iterate.billed)}`]
        .filter(Boolean)
        .join(', '),
    });
    figures.push({
      section: 'workflows',
      name: 'Step Functions cost per 1,000 workflows',
      value:
        [plain && `${usd(plain.usdPerThousandWorkflows)} plain`, iterate && `${usd(iterate.usdPerThousandWorkflows)} with one iterate loop`]
          .filter(Boolean)
          .join(', ') + ` (Standard, $${price}/1,000 transitions, free tier excluded; Lambda/DynamoDB not included)`,
    });
  }
  return figures;
};

const describeBatch = (b: WorkflowBatch): string =>
  `${b.completed}/${b.workflows} completed, p50 ${fixed(b.totalMs.p50, 0)} ms, p95 ${fixed(b.totalMs.p95, 0)} ms, max ${fixed(b.totalMs.max, 0)} ms (${fixed(b.elapsedMs / 1000, 2)} s in all)`;

export const benchWorkflows = async (runtime: BenchRuntime, settings: WorkflowSettings): Promise<WorkflowSection> => {
  heading('5. Workflows');
  const repository = await fixtureRepository();
  let receiver: CompletionReceiver | undefined;
  try {
    receiver = await startCompletionReceiver();
    const tenant = await workflowTenant(runtime, repository, receiver);
    console.log(`Fixture repository ${repository.url} (commit ${repository.commit.slice(0, 8)}); receiver at ${receiver.url}.`);

    console.log(`  warm-up: ${settings.warmup.plain} plain and ${settings.warmup.iterate} iterate-path workflow(s)…`);
    const warmupMs: Record<WorkflowPath, number[]> = { plain: [], iterate: [] };
    for (const path of ['plain', 'iterate'] as const) {
      for (let i = 0; i < settings.warmup[path]; i += 1) {
        const run = await runWorkflow(runtime, tenant, receiver, path, 9000 + i, settings.maxWaitMs);
        if (run.status !== 'completed')
          throw new Error(`the warm-up workflow ${run.id} ended ${run.status}${run.error ? ` (${run.error})` : ''}`);
        warmupMs[path].push(round(run.totalMs));
      }
    }

    const batches: WorkflowBatch[] = [];
    console.log(`  sequential: ${settings.sequential} workflows, one at a time…`);
    const sequential = await runSequential(runtime, tenant, receiver, 'plain', settings.sequential, settings.maxWaitMs);
    batches.push(batchOf('sequential', 'plain', 'sequential', sequential.runs, sequential.elapsedMs));
    console.log(`  sequential: ${describeBatch(batches.at(-1) as WorkflowBatch)}`);

    console.log(`  concurrent: ${settings.concurrent} workflows started together…`);
    const concurrent = await runConcurrent(runtime, tenant, receiver, 'plain', settings.concurrent, settings.maxWaitMs);
    batches.push(batchOf('concurrent', 'plain', 'concurrent', concurrent.runs, concurrent.elapsedMs));
    console.log(`  concurrent: ${describeBatch(batches.at(-1) as WorkflowBatch)}`);

    console.log(`  iterate: ${settings.iterate} workflows that take the iterate loop once, one at a time…`);
    const iterate = await runSequential(runtime, tenant, receiver, 'iterate', settings.iterate, settings.maxWaitMs);
    batches.push(batchOf('iterate', 'iterate', 'sequential', iterate.runs, iterate.elapsedMs));
    console.log(`  iterate: ${describeBatch(batches.at(-1) as WorkflowBatch)}`);
    const notLooped = iterate.runs.filter((r) => r.status === 'completed' && r.iterations !== 1).length;
    if (notLooped > 0) console.log(`  (${notLooped} iterate-path workflow(s) did not iterate exactly once)`);

    const runs = batches.flatMap((b) => b.runs);
    const price = settings.pricePerThousandTransitionsUsd;
    const transitions = (['plain', 'iterate'] as const)
      .map((path) => transitionsOf(path, runs, price))
      .filter((c): c is TransitionCost => c !== undefined);
    if (receiver.strays > 0) console.log(`  (${receiver.strays} request(s) at the receiver were not a terminal workflow event)`);

    printTotals(batches, warmupMs);
    printSplit(batches);
    printTransitions(transitions, price);
    return { warmupMs, batches, transitions, receiverStrays: receiver.strays, figures: figuresOf(batches, transitions, price) };
  } finally {
    await receiver?.close();
    await repository.remove();
  }
};
