import {
  argument,
  type CommandContext,
  type CommandGroup,
  listOptions,
  pageQuery,
  optionalString,
  required,
  textOrFile,
  UsageError,
  idempotencyOption,
} from './command';
import { printList, readList } from './list-result';
import { type JobTimes, jobTime, table } from './output';
import { interrupted, pollUntil } from './watch';

type Deployment = JobTimes & {
  id: string;
  project_id: string;
  created_at: string;
  status: string;
  environment: string;
  provider: string;
  url: string | null;
  version: string | null;
  error: { step: string; message: string } | null;
  rollback: { status: string; error?: string | null } | null;
  rolled_back_to: string | null;
};

const readDeployment = async (context: CommandContext, id: string): Promise<Deployment> =>
  (await context.api.get('/v1/deployments/{id}', { params: { path: { id } } })).data as Deployment;

const describe = (d: Deployment) =>
  [
    `Deployment ${d.id} ${d.status} (${d.provider} → ${d.environment}).`,
    d.url ? `  url: ${d.url}` : '',
    d.version ? `  version: ${d.version}` : '',
    d.error ? `  ${d.error.step}: ${d.error.message}` : '',
    d.rollback ? `  rollback: ${d.rollback.status}${d.rollback.error ? ` (${d.rollback.error})` : ''}` : '',
    d.rolled_back_to ? `  rolled back to ${d.rolled_back_to}` : '',
  ]
    .filter(Boolean)
    .join('\n');

/** Follows a deployment until `done`; exit 0 when `succeeded` holds for where it ended. */
const watch = async (context: CommandContext, id: string, done: (d: Deployment) => boolean, succeeded: (d: Deployment) => boolean) => {
  const progress = context.out.progress();
  const deployment = await pollUntil(
    context,
    () => readDeployment(context, id),
    done,
    (d) => progress.update(`${d.id} ${d.status}${d.rollback ? `, rollback ${d.rollback.status}` : ''}`, jobTime(d)),
  );
  progress.stop();
  if (!deployment) return interrupted;
  context.out.result(deployment, () => describe(deployment));
  return succeeded(deployment) ? 0 : 1;
};

const ended = (d: Deployment) => ['completed', 'failed', 'rolled_back'].includes(d.status) && d.rollback?.status !== 'in_progress';

export const deployments: CommandGroup = {
  name: 'deployments',
  summary: 'deploy projects and roll them back',
  commands: {
    create: {
      summary: 'deploy a project',
      options: {
        project: { type: 'string', description: 'the project id (required)' },
        environment: { type: 'string', description: 'e.g. production (required)' },
        provider: { type: 'string', description: 'deploy-hook or aws-lambda (required)', values: ['deploy-hook', 'aws-lambda'] },
        config: { type: 'string', description: "the provider's settings as JSON (with branch)" },
        'config-file': { type: 'string', description: 'read them from this JSON file instead' },
        artifact: { type: 'string', description: 'a completed workflow of the project whose bundle is deployed' },
        watch: { type: 'boolean', description: 'wait for the outcome; exit status 1 unless it completed' },
        ...idempotencyOption,
      },
      async run(context) {
        const text = await textOrFile(context, 'config', 'config-file');
        if (!text) throw new UsageError('--config or --config-file is required');
        let config: unknown;
        try {
          config = JSON.parse(text);
        } catch {
          throw new UsageError('the provider settings are not valid JSON');
        }
        const { data } = await context.api.post('/v1/deployments', {
          body: {
            project_id: required(context, 'project'),
            environment: required(context, 'environment'),
            provider: required(context, 'provider'),
            config,
            artifact: optionalString(context, 'artifact'),
          } as never,
        });
        if (!context.values.watch) {
          context.out.result(data, () => `Started deployment ${data.id} (${data.status}).`);
          return 0;
        }
        return watch(context, data.id, ended, (d) => d.status === 'completed');
      },
    },
    rollback: {
      summary: "roll back a project's current deployment to the one before it",
      args: '<deployment_id>',
      options: {
        watch: { type: 'boolean', description: 'wait for the rollback; exit status 1 unless it completed' },
        ...idempotencyOption,
      },
      async run(context) {
        const id = argument(context, 0, 'the deployment id');
        const { data } = await context.api.post('/v1/deployments/{id}/rollback', { params: { path: { id } } });
        if (!context.values.watch) {
          context.out.result(data, () => `Rolling back ${data.id}.`);
          return 0;
        }
        return watch(context, id, ended, (d) => d.status === 'rolled_back' && d.rollback?.status === 'completed');
      },
    },
    list: {
      summary: 'list deployments, newest first (the newest completed one of an environment is the one to roll back)',
      options: {
        ...listOptions,
        project: { type: 'string', description: "only this project's" },
        environment: {
          type: 'string',
          description: 'production, staging, preview or development',
          values: ['production', 'staging', 'preview', 'development'],
        },
        status: {
          type: 'string',
          description: 'queued, in_progress, completed, failed or rolled_back',
          values: ['queued', 'in_progress', 'completed', 'failed', 'rolled_back'],
        },
      },
      async run(context) {
        const query = {
          ...pageQuery(context),
          project_id: optionalString(context, 'project'),
          environment: optionalString(context, 'environment') as 'production' | 'staging' | 'preview' | 'development' | undefined,
          status: optionalString(context, 'status') as 'queued' | 'in_progress' | 'completed' | 'failed' | 'rolled_back' | undefined,
        };
        const { items, meta } = await readList<Deployment>(
          context,
          () => context.api.paginate('/v1/deployments', { params: { query } }),
          () => context.api.get('/v1/deployments', { params: { query } }),
        );
        printList(context, items, meta, () =>
          table(
            ['ID', 'STATUS', 'ENVIRONMENT', 'PROVIDER', 'VERSION', 'PROJECT', 'CREATED'],
            items.map((d) => [d.id, d.status, d.environment, d.provider, d.version, d.project_id, d.created_at]),
          ),
        );
        return 0;
      },
    },
    get: {
      summary: 'show a deployment',
      args: '<deployment_id>',
      async run(context) {
        const deployment = await readDeployment(context, argument(context, 0, 'the deployment id'));
        context.out.result(deployment, () => describe(deployment));
        return 0;
      },
    },
  },
};
