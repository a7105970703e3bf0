import { aiProviderNames } from '../../functions/core/ai/provider';
import {
  argument,
  choiceOption,
  type CommandContext,
  type CommandGroup,
  integerOption,
  listOptions,
  pageQuery,
  optionalString,
  textOrFile,
  UsageError,
  idempotencyOption,
} from './command';
import { printList, readList } from './list-result';
import { type JobTimes, jobTime, seconds, sleep, table } from './output';
import { interrupted, pollUntil } from './watch';

type Workflow = JobTimes & {
  id: string;
  project_id: string;
  status: string;
  name: string;
  created_at: string;
  stages: string[];
  stage_statuses: Record<string, string>;
  stage_timings: Record<string, { duration_ms: number | null; runs: number }>;
  error: { stage: string | null; message: string } | null;
  outputs: { diff: { files_changed: number } | null; bundle: { location: string } | null; pushed_branch: string | null };
};

const finished = ['completed', 'failed', 'cancelled'];
const marks: Record<string, string> = { completed: '✓', failed: '✗', skipped: '–', cancelled: '✗' };

const readWorkflow = async (context: CommandContext, id: string): Promise<Workflow> =>
  (await context.api.get('/v1/workflows/{id}', { params: { path: { id } } })).data as Workflow;

/** Shows each stage as it finishes and the one under way, until the workflow ends; exit 0 only when it completed. */
const watchWorkflow = async (context: CommandContext, id: string): Promise<number> => {
  const progress = context.out.progress();
  const shown = new Map<string, string>();
  const workflow = await pollUntil(
    context,
    () => readWorkflow(context, id),
    (w) => finished.includes(w.status),
    (w) => {
      for (const stage of w.stages) {
        const status = w.stage_statuses[stage] ?? 'pending';
        const key = `${status}:${w.stage_timings[stage]?.runs ?? 0}`;
        if (marks[status] && shown.get(stage) !== key) {
          shown.set(stage, key);
          progress.log(`${marks[status]} ${stage.padEnd(8)} ${status.padEnd(9)} ${seconds(w.stage_timings[stage]?.duration_ms)}`);
        }
      }
      const running = w.stages.find((stage) => w.stage_statuses[stage] === 'running');
      progress.update(`${w.id} ${w.status}${running ? `: ${running}` : ''}`, jobTime(w));
    },
  );
  progress.stop();
  if (!workflow) return interrupted;
  context.out.result(workflow, () =>
    [
      `Workflow ${workflow.id} ${workflow.status}.`,
      workflow.error ? `  ${workflow.error.stage ?? ''}: ${workflow.error.message}` : '',
      workflow.outputs.diff ? `  ${workflow.outputs.diff.files_changed} file(s) changed` : '',
      workflow.outputs.bundle ? `  bundle: ${workflow.outputs.bundle.location}` : '',
      workflow.outputs.pushed_branch ? `  pushed: ${workflow.outputs.pushed_branch}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return workflow.status === 'completed' ? 0 : 1;
};

type LogLine = { timestamp: string; stage: string | null; level: string; message: string };

const formatLog = (line: LogLine) =>
  `${line.timestamp} ${line.level.toUpperCase().padEnd(5)} ${(line.stage ?? '').padEnd(8)} ${line.message}`;

/** Log lines oldest first; with `follow`, waits for new lines until the workflow has ended and none are left. */
const printLogs = async (context: CommandContext, id: string, follow: boolean): Promise<number> => {
  const perPage = 100;
  const query = {
    per_page: perPage,
    order: 'asc' as const,
    stage: optionalString(context, 'stage') as 'intake' | undefined,
    level: optionalString(context, 'level') as 'info' | undefined,
  };
  let printed = 0;
  for (;;) {
    const ended = follow ? finished.includes((await readWorkflow(context, id)).status) : true;
    // Read from the page holding the first line not printed yet.
    for (;;) {
      const page = Math.floor(printed / perPage) + 1;
      const { data } = await context.api.get('/v1/workflows/{id}/logs', { params: { path: { id }, query: { ...query, page } } });
      const fresh = data.slice(printed % perPage);
      for (const line of fresh) context.out.line(context.out.json ? JSON.stringify(line) : formatLog(line));
      printed += fresh.length;
      if (data.length < perPage) break;
    }
    if (ended) return 0;
    await sleep(1000, context.signal);
    if (context.signal.aborted) return interrupted;
  }
};

export const workflows: CommandGroup = {
  name: 'workflows',
  summary: 'start AI workflows, watch them, read their logs',
  commands: {
    create: {
      summary: 'start a workflow on a project',
      options: {
        project: { type: 'string', description: 'the project id (required)' },
        prompt: { type: 'string', description: 'what to do' },
        'prompt-file': { type: 'string', description: 'read the prompt from this file instead' },
        name: { type: 'string', description: "its name (default: the prompt's first line)" },
        provider: {
          type: 'string',
          description: 'AI provider this deployment offers: local (offline), bedrock, openai, anthropic (default: the first it offers)',
          values: aiProviderNames,
        },
        branch: { type: 'string', description: 'git branch (default: the repository default)' },
        'max-iterations': { type: 'string', description: 'fix-and-verify rounds, 1 to 5 (default 2)' },
        'auto-deploy': { type: 'boolean', description: 'deploy the result like the latest completed deployment' },
        watch: { type: 'boolean', description: 'show each stage as it runs; exit status from the outcome' },
        ...idempotencyOption,
      },
      async run(context) {
        const prompt = await textOrFile(context, 'prompt', 'prompt-file');
        if (!prompt) throw new UsageError('--prompt or --prompt-file is required');
        const project = optionalString(context, 'project');
        if (!project) throw new UsageError('--project is required');
        const { data } = await context.api.post('/v1/workflows', {
          body: {
            project_id: project,
            prompt,
            name: optionalString(context, 'name'),
            config: {
              ai_provider: choiceOption(context, 'provider', aiProviderNames),
              branch: optionalString(context, 'branch'),
              max_iterations: integerOption(context, 'max-iterations'),
              auto_deploy: context.values['auto-deploy'] === true ? true : undefined,
            },
          },
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Started workflow ${data.id} (${data.status}). Watch it: workflows watch ${data.id}`);
          return 0;
        }
        context.out.error(`Started workflow ${data.id}.`);
        return watchWorkflow(context, data.id);
      },
    },
    list: {
      summary: 'list workflows, newest first',
      options: {
        ...listOptions,
        project: { type: 'string', description: "only this project's" },
        status: {
          type: 'string',
          description: 'queued, running, completed, failed or cancelled',
          values: ['queued', 'running', 'completed', 'failed', 'cancelled'],
        },
      },
      async run(context) {
        const query = {
          ...pageQuery(context),
          project_id: optionalString(context, 'project'),
          status: optionalString(context, 'status') as 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | undefined,
        };
        const { items, meta } = await readList<Workflow>(
          context,
          () => context.api.paginate('/v1/workflows', { params: { query } }),
          () => context.api.get('/v1/workflows', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'STATUS', 'PROJECT', 'TIME', 'CREATED', 'NAME'],
            items.map((w) => [w.id, w.status, w.project_id, jobTime(w), w.created_at, w.name]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show a workflow',
      args: '<workflow_id>',
      async run(context) {
        const workflow = await readWorkflow(context, argument(context, 0, 'the workflow id'));
        context.out.result(workflow, () =>
          [
            `${workflow.id}  ${workflow.status}  ${workflow.name}`,
            table(
              ['STAGE', 'STATUS', 'TIME', 'RUNS'],
              workflow.stages.map((s) => [
                s,
                workflow.stage_statuses[s],
                seconds(workflow.stage_timings[s]?.duration_ms),
                workflow.stage_timings[s]?.runs,
              ]),
            ),
            workflow.error ? `error: ${workflow.error.stage ?? ''}: ${workflow.error.message}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
        return 0;
      },
    },
    watch: {
      summary: 'follow a workflow until it ends; exit status from the outcome',
      args: '<workflow_id>',
      run: (context) => watchWorkflow(context, argument(context, 0, 'the workflow id')),
    },
    cancel: {
      summary: 'cancel a queued or running workflow',
      args: '<workflow_id>',
      async run(context) {
        const id = argument(context, 0, 'the workflow id');
        const { data } = await context.api.post('/v1/workflows/{id}/cancel', { params: { path: { id } } });
        context.out.result(data, () => `Cancelled workflow ${data.id} (${data.status}).`);
        return 0;
      },
    },
    logs: {
      summary: 'print log lines, oldest first',
      args: '<workflow_id>',
      options: {
        follow: { type: 'boolean', short: 'f', description: 'keep printing new lines until the workflow ends' },
        stage: { type: 'string', description: 'only this stage', values: ['intake', 'build', 'verify', 'prove', 'iterate', 'package'] },
        level: { type: 'string', description: 'only this level', values: ['debug', 'info', 'warn', 'error'] },
      },
      run: (context) => printLogs(context, argument(context, 0, 'the workflow id'), context.values.follow === true),
    },
  },
};
