import { argument, type CommandGroup, listOptions, pageQuery, optionalString, required, UsageError, idempotencyOption } from './command';
import { conditionOf, etagLine, ifMatchOption, withEtag } from './conditional';
import { printList, readList } from './list-result';
import { table } from './output';

type Project = { id: string; name: string; repository: string; description: string; created_at: string };

const projectTable = (projects: Project[]) =>
  table(
    ['ID', 'NAME', 'REPOSITORY', 'CREATED'],
    projects.map((p) => [p.id, p.name, p.repository, p.created_at]),
  );

export const projects: CommandGroup = {
  name: 'projects',
  summary: 'list, create, read, change and delete projects',
  commands: {
    list: {
      summary: 'list projects',
      options: {
        ...listOptions,
        sort: { type: 'string', description: 'created_at, name or updated_at', values: ['created_at', 'name', 'updated_at'] },
        order: { type: 'string', description: 'asc or desc', values: ['asc', 'desc'] },
      },
      async run(context) {
        const query = {
          ...pageQuery(context),
          sort: optionalString(context, 'sort') as 'created_at' | 'name' | 'updated_at' | undefined,
          order: optionalString(context, 'order') as 'asc' | 'desc' | undefined,
        };
        const { items, meta } = await readList<Project>(
          context,
          () => context.api.paginate('/v1/projects', { params: { query } }),
          () => context.api.get('/v1/projects', { params: { query } }),
        );
        printList(context, items, meta, () => projectTable(items));
        return 0;
      },
    },
    create: {
      summary: 'create a project',
      options: {
        name: { type: 'string', description: 'its name (required)' },
        repository: { type: 'string', description: 'https:// (or, locally, file:///) URL of its git repository (required)' },
        description: { type: 'string', description: 'what it is' },
        ...idempotencyOption,
      },
      async run(context) {
        const created = await context.api.post('/v1/projects', {
          body: {
            name: required(context, 'name'),
            repository: required(context, 'repository'),
            description: optionalString(context, 'description'),
          },
        });
        const { data } = created;
        context.out.result(withEtag(created), () => `Created project ${data.id} (${data.name}).`);
        return 0;
      },
    },
    get: {
      summary: 'show a project',
      args: '<project_id>',
      async run(context) {
        const read = await context.api.get('/v1/projects/{id}', { params: { path: { id: argument(context, 0, 'the project id') } } });
        const { data } = read;
        context.out.result(
          withEtag(read),
          () => projectTable([data]) + (data.description ? `\n\n${data.description}` : '') + etagLine(read),
        );
        return 0;
      },
    },
    update: {
      summary: "change a project's name, repository or description",
      args: '<project_id>',
      options: {
        name: { type: 'string', description: 'its new name' },
        repository: { type: 'string', description: 'its new https:// (or, locally, file:///) repository URL' },
        description: { type: 'string', description: 'its new description ("" for none)' },
        ...ifMatchOption,
      },
      async run(context) {
        const id = argument(context, 0, 'the project id');
        const changes = {
          name: optionalString(context, 'name'),
          repository: optionalString(context, 'repository'),
          description: optionalString(context, 'description'),
        };
        if (Object.values(changes).every((value) => value === undefined)) {
          throw new UsageError('give at least one of --name, --repository and --description');
        }
        const changed = await context.api.patch('/v1/projects/{id}', { params: { path: { id }, ...conditionOf(context) }, body: changes });
        context.out.result(withEtag(changed), () => `Changed project ${id} (${changed.data.name}).${etagLine(changed)}`);
        return 0;
      },
    },
    delete: {
      summary: 'delete a project (refused while a workflow or deployment of it runs)',
      args: '<project_id>',
      options: { ...ifMatchOption },
      async run(context) {
        const id = argument(context, 0, 'the project id');
        await context.api.delete('/v1/projects/{id}', { params: { path: { id }, ...conditionOf(context) } });
        context.out.result({ id, deleted: true }, () => `Deleted project ${id}.`);
        return 0;
      },
    },
  },
};
