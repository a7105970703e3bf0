import { argument, type CommandContext, type CommandGroup, integerOption, listOption, optionalString, UsageError } from './command';
import { type JobTimes, jobTime, seconds, table } from './output';
import { interrupted, pollUntil } from './watch';

type Totals = { passed: number; failed: number; skipped: number; errored: number };
type Job = JobTimes & {
  id: string;
  object: 'test_suite' | 'test_run';
  status: string;
  error: string | null;
  files?: { path: string; cases: string[] }[];
  results?: {
    totals: Totals;
    duration_ms: number;
    cases: { name: string; file: string | null; status: string; failure_message: string | null }[];
    timed_out: boolean;
  } | null;
};

const finished = ['completed', 'failed'];

const readJob = async (context: CommandContext, id: string): Promise<Job> =>
  (await context.api.get('/v1/tests/{id}', { params: { path: { id } } })).data as Job;

const describeRun = (run: Job) => {
  const results = run.results;
  if (!results) return `Run ${run.id} ${run.status}.${run.error ? `\n  ${run.error}` : ''}`;
  const { passed, failed, skipped, errored } = results.totals;
  const failures = results.cases.filter((c) => c.status === 'failed' || c.status === 'errored');
  return [
    `Run ${run.id} ${run.status}: ${passed} passed, ${failed} failed, ${skipped} skipped, ${errored} errored (${seconds(results.duration_ms)})${results.timed_out ? ', timed out' : ''}.`,
    failures.length
      ? table(
          ['STATUS', 'TEST', 'MESSAGE'],
          failures.map((c) => [c.status, c.name, (c.failure_message ?? '').split('\n')[0]]),
        )
      : '',
    run.error ? `  ${run.error}` : '',
  ]
    .filter(Boolean)
    .join('\n');
};

/** Waits for a suite or run to end. */
const watchJob = async (context: CommandContext, id: string): Promise<Job | undefined> => {
  const progress = context.out.progress();
  const job = await pollUntil(
    context,
    () => readJob(context, id),
    (j) => finished.includes(j.status),
    (j) => progress.update(`${j.id} ${j.status}`, jobTime(j)),
  );
  progress.stop();
  return job;
};

/** A run passes when it completed with no failed or errored case. */
const runPassed = (run: Job) => run.status === 'completed' && !!run.results && run.results.totals.failed + run.results.totals.errored === 0;

export const tests: CommandGroup = {
  name: 'tests',
  summary: 'generate and run tests',
  commands: {
    generate: {
      summary: 'ask the AI for a test suite of a project',
      options: {
        project: { type: 'string', description: 'the project id (required)' },
        paths: { type: 'string', description: 'comma list of files or folders to cover' },
        framework: { type: 'string', description: 'jest, vitest, node:test or pytest (default: detected)' },
        branch: { type: 'string', description: 'git branch' },
        watch: { type: 'boolean', description: 'wait until the suite is written' },
      },
      async run(context) {
        const project = optionalString(context, 'project');
        if (!project) throw new UsageError('--project is required');
        const { data } = await context.api.post('/v1/tests/generate', {
          body: {
            project_id: project,
            paths: listOption(context, 'paths'),
            framework: optionalString(context, 'framework') as 'jest' | undefined,
            branch: optionalString(context, 'branch'),
          },
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Generating suite ${data.id}. Run it: tests run --suite ${data.id} --watch`);
          return 0;
        }
        const suite = await watchJob(context, data.id);
        if (!suite) return interrupted;
        context.out.result(suite, () =>
          [
            `Suite ${suite.id} ${suite.status}.`,
            ...(suite.files ?? []).map((f) => `  ${f.path} (${f.cases.length} cases)`),
            suite.error ?? '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
        return suite.status === 'completed' ? 0 : 1;
      },
    },
    run: {
      summary: "run a generated suite (--suite) or a repository's own tests (--project)",
      options: {
        suite: { type: 'string', description: 'a completed suite (test_…)' },
        project: { type: 'string', description: "run this project's own tests instead" },
        branch: { type: 'string', description: 'git branch (with --project)' },
        timeout: { type: 'string', description: 'seconds, at most 900 (default 300)' },
        watch: { type: 'boolean', description: 'wait for the results; exit status 1 unless every test passed' },
      },
      async run(context) {
        const suite = optionalString(context, 'suite');
        const project = optionalString(context, 'project');
        if (!suite === !project) throw new UsageError('give --suite <test_id> or --project <project_id>');
        const { data } = await context.api.post('/v1/tests/run', {
          body: {
            test_id: suite,
            project_id: project,
            branch: optionalString(context, 'branch'),
            timeout_seconds: integerOption(context, 'timeout'),
          },
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Started run ${data.id}. Results: tests results ${data.id}`);
          return 0;
        }
        const run = await watchJob(context, data.id);
        if (!run) return interrupted;
        context.out.result(run, () => describeRun(run));
        return runPassed(run) ? 0 : 1;
      },
    },
    results: {
      summary: "show a run's results (or a suite's latest run's)",
      args: '<run_id|test_id>',
      async run(context) {
        const { data } = await context.api.get('/v1/tests/{id}/results', {
          params: { path: { id: argument(context, 0, 'the run or suite id') } },
        });
        const run = data as Job;
        context.out.result(run, () => describeRun(run));
        return runPassed(run) ? 0 : 1;
      },
    },
  },
};
