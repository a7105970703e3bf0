import { dynamoEventRepository } from '../../functions/adapters/dynamodb/event-repository';
import { dynamoProjectRepository } from '../../functions/adapters/dynamodb/project-repository';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import { ApiError } from '../../functions/core/errors';
import { newId } from '../../functions/core/ids';
import { entityTagOf } from '../../functions/core/preconditions';
import type { Project, ProjectRepository } from '../../functions/core/projects/project';
import { updateProject } from '../../functions/core/projects/project-use-cases';
import type { Tenant } from '../../functions/core/tenancy';
import { viewOfWebhook, type Webhook, type WebhookRepository } from '../../functions/core/webhooks/webhook';
import { updateWebhook, type WebhookTargetDeps } from '../../functions/core/webhooks/webhook-use-cases';
import type { PendingEvent } from '../../functions/core/workflows/workflow';
import { type ControlledClock, controlledClock } from '../unit/fakes/clock';
import { inMemoryProjectRepository } from '../unit/fakes/project-repository';
import { inMemoryWebhooks } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';

/**
 * A PATCH that gives every field as stored, run through its use case on each implementation of the
 * repositories: nothing is written (`updated_at`, the ETag and the events stay as they were), and
 * the compare is made against what the write would replace, however a change lands in between.
 */
const dynamodb = useDynamoDbLocal();

interface Subject {
  projects: ProjectRepository;
  webhooks: WebhookRepository;
  events(): Promise<PendingEvent[]>;
}

const tenant: Tenant = { accountId: 'acct_contract', mode: 'test' };
const start = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minute: number): string => new Date(start + minute * 60_000).toISOString();

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fakes',
    async () => {
      const recorded: PendingEvent[] = [];
      return { projects: inMemoryProjectRepository(), webhooks: inMemoryWebhooks(recorded), events: async () => recorded };
    },
  ],
  [
    'the DynamoDB adapters on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      const events = async () =>
        (await dynamoEventRepository(table).list(tenant, { page: 1, perPage: 100, sort: 'created_at', order: 'asc' }, {})).items.map(
          ({ type, data }) => ({ type, data }),
        );
      return { projects: dynamoProjectRepository(table), webhooks: dynamoWebhookRepository(table), events };
    },
  ],
];

const project: Project = {
  id: newId('project', start),
  name: 'Shop',
  repository: 'https://127.0.0.1:9/acme/shop.git',
  description: 'Storefront',
  created_at: at(0),
  updated_at: at(0),
};

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: newId('webhook', start),
  url: 'http://127.0.0.1:9/hooks',
  events: ['workflow.completed', 'deployment.failed'],
  active: true,
  status: 'enabled',
  description: null,
  created_at: at(0),
  updated_at: at(0),
  failed_at: null,
  secret: 'whsec_contract',
  previous_secret: null,
  previous_secret_expires_at: null,
  ...overrides,
});

const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (error: unknown) => {
      if (error instanceof ApiError) return error.code;
      throw error;
    },
  );

/** The first read is followed at once by `meanwhile` (another writer's change), before the use case writes. */
const changedAfterFirstRead = <R extends { get: (...args: never[]) => Promise<unknown> }>(
  repository: R,
  meanwhile: () => Promise<unknown>,
): R => {
  let reads = 0;
  return {
    ...repository,
    get: async (...args: Parameters<R['get']>) => {
      const read = await repository.get(...args);
      reads += 1;
      if (reads === 1) await meanwhile();
      return read;
    },
  };
};

describe.each(implementations)('A PATCH that changes nothing: %s', (_name, make) => {
  let subject: Subject;
  let clock: ControlledClock;
  beforeEach(async () => {
    subject = await make();
    clock = controlledClock(Date.parse(at(30)));
  });

  const projectDeps = (projects: ProjectRepository = subject.projects) => ({ projects, clock, repositoryProblem: () => null });
  const webhookDeps = (webhooks: WebhookRepository = subject.webhooks): WebhookTargetDeps => ({
    webhooks,
    clock,
    policyFor: () => ({ requireHttps: false, allowPrivate: true }),
    assessTarget: async () => ({ ok: true }),
  });

  it('of a project answers it as stored and writes nothing; a stale If-Match is still 412, a real change still moves it', async () => {
    await subject.projects.create(tenant, project);
    const tag = entityTagOf(project);
    const same = { name: project.name, repository: project.repository, description: project.description };

    expect(await updateProject(tenant, project.id, same, projectDeps())).toEqual(project);
    expect(await updateProject(tenant, project.id, { description: project.description }, projectDeps(), tag)).toEqual(project);
    expect(await subject.projects.get(tenant, project.id, { consistent: true })).toEqual(project);

    const changed = await updateProject(tenant, project.id, { description: 'The storefront' }, projectDeps());
    expect(changed).toEqual({ ...project, description: 'The storefront', updated_at: at(30) });
    // `tag` names the project before that change: a PATCH changing nothing is judged by it all the same.
    expect(await codeOf(updateProject(tenant, project.id, { description: 'The storefront' }, projectDeps(), tag))).toBe(
      'precondition_failed',
    );
    expect(await subject.projects.get(tenant, project.id, { consistent: true })).toEqual(changed);
  });

  it('of a project is judged against what the write would replace: a change landing between read and write that makes it one writes nothing more', async () => {
    await subject.projects.create(tenant, project);
    // Another writer sets the same description after this PATCH read the project.
    const racing = changedAfterFirstRead(subject.projects, () =>
      subject.projects.update(tenant, project.id, { description: 'Renamed' }, at(5)),
    );
    const answered = await updateProject(tenant, project.id, { description: 'Renamed' }, projectDeps(racing));
    const theirs = { ...project, description: 'Renamed', updated_at: at(5) };
    expect(answered).toEqual(theirs);
    expect(await subject.projects.get(tenant, project.id, { consistent: true })).toEqual(theirs);
  });

  it('of a webhook answers it as stored, writes nothing and tells no event, whatever field repeats what is stored', async () => {
    const stored = webhook({ description: 'Orders' });
    await subject.webhooks.create(tenant, stored);
    const tag = entityTagOf(viewOfWebhook(stored));

    for (const same of [
      { active: true },
      { events: [...stored.events] },
      // The same list once its repeats are dropped, as it would be stored.
      { events: ['workflow.completed', 'deployment.failed', 'workflow.completed'] as Webhook['events'] },
      { url: stored.url, description: 'Orders' },
      { url: stored.url, events: [...stored.events], active: true, description: 'Orders' },
    ]) {
      expect(await updateWebhook(tenant, stored.id, same, webhookDeps())).toEqual(viewOfWebhook(stored));
    }
    expect(await updateWebhook(tenant, stored.id, { active: true }, webhookDeps(), tag)).toEqual(viewOfWebhook(stored));
    expect(await subject.webhooks.get(tenant, stored.id, { consistent: true })).toEqual(stored);
    expect(await subject.events()).toEqual([]);

    await updateWebhook(tenant, stored.id, { description: 'Orders and refunds' }, webhookDeps());
    expect(await codeOf(updateWebhook(tenant, stored.id, { active: true }, webhookDeps(), tag))).toBe('precondition_failed');
  });

  it('of a webhook does not cover active: true on a failed one: that re-enables it and tells webhook.enabled', async () => {
    const failed = webhook({ status: 'failed', failed_at: at(1) });
    await subject.webhooks.create(tenant, failed);
    const enabled = await updateWebhook(tenant, failed.id, { active: true }, webhookDeps());
    expect(enabled).toEqual({ ...viewOfWebhook(failed), status: 'enabled', failed_at: null, updated_at: at(30) });
    expect(await subject.events()).toEqual([{ type: 'webhook.enabled', data: enabled }]);
    // Now it is enabled: the same PATCH again changes nothing.
    clock.advance(60_000);
    expect(await updateWebhook(tenant, failed.id, { active: true }, webhookDeps())).toEqual(enabled);
    expect(await subject.events()).toHaveLength(1);
  });

  it('of a webhook is judged against what the write would replace: a change landing between read and write that makes it one writes nothing more', async () => {
    const stored = webhook();
    await subject.webhooks.create(tenant, stored);
    const racing = changedAfterFirstRead(subject.webhooks, () =>
      subject.webhooks.update(tenant, stored.id, { description: 'Orders' }, at(5)),
    );
    const answered = await updateWebhook(tenant, stored.id, { description: 'Orders' }, webhookDeps(racing));
    const theirs = { ...stored, description: 'Orders', updated_at: at(5) };
    expect(answered).toEqual(viewOfWebhook(theirs));
    expect(await subject.webhooks.get(tenant, stored.id, { consistent: true })).toEqual(theirs);
  });
});
