import {
  argument,
  type CommandContext,
  type CommandGroup,
  integerOption,
  listOption,
  jobListOptions,
  jobListQuery,
  optionalString,
  UsageError,
  idempotencyOption,
} from './command';
import { printList, readList } from './list-result';
import { type JobTimes, jobTime, seconds, table } from './output';
import { interrupted, pollUntil } from './watch';

type Totals = { passed: number; failed: number; skipped: number; errored: number };
type Job = JobTimes & {
  id: string;
  project_id: string;
  created_at: string;
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

const describeSuite = (suite: Job) =>
  [`Suite ${suite.id} ${suite.status}.`, ...(suite.files ?? []).map((f) => `  ${f.path} (${f.cases.length} cases)`), suite.error ?? '']
    .filter(Boolean)
    .join('\n');

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
        framework: {
          type: 'string',
          description: 'jest, vitest, node:test or pytest (default: detected from the repository)',
          values: ['jest', 'vitest', 'node:test', 'pytest'],
        },
        branch: { type: 'string', description: 'git branch' },
        watch: { type: 'boolean', description: 'wait until the suite is written' },
        ...idempotencyOption,
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
        context.out.result(suite, () => describeSuite(suite));
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
        ...idempotencyOption,
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
    list: {
      summary: 'list generated suites and runs, newest first',
      options: {
        ...jobListOptions,
        object: { type: 'string', description: 'test_suite or test_run', values: ['test_suite', 'test_run'] },
      },
      async run(context) {
        const query = {
          ...jobListQuery(context),
          object: optionalString(context, 'object') as 'test_suite' | 'test_run' | undefined,
        };
        const { items, meta } = await readList<Job>(
          context,
          () => context.api.paginate('/v1/tests', { params: { query } }),
          () => context.api.get('/v1/tests', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'OBJECT', 'STATUS', 'TIME', 'PROJECT', 'CREATED'],
            items.map((job) => [job.id, job.object, job.status, jobTime(job), job.project_id, job.created_at]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show a generated suite (its files and cases) or a run',
      args: '<test_id|run_id>',
      async run(context) {
        const job = await readJob(context, argument(context, 0, 'the suite or run id'));
        context.out.result(job, () => (job.object === 'test_suite' ? describeSuite(job) : describeRun(job)));
        return 0;
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
