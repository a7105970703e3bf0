import { argument, type CommandGroup, integerOption, listOptions, optionalString, required } from './command';
import { table } from './output';

type Project = { id: string; name: string; repository: string; description: string; created_at: string };

const projectTable = (projects: Project[]) =>
  table(
    ['ID', 'NAME', 'REPOSITORY', 'CREATED'],
    projects.map((p) => [p.id, p.name, p.repository, p.created_at]),
  );

export const projects: CommandGroup = {
  name: 'projects',
  summary: 'list, create and read projects',
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
          per_page: integerOption(context, 'per-page'),
          sort: optionalString(context, 'sort') as 'created_at' | 'name' | 'updated_at' | undefined,
          order: optionalString(context, 'order') as 'asc' | 'desc' | undefined,
        };
        const items: Project[] = [];
        if (context.values.all)
          for await (const project of context.api.paginate('/v1/projects', { params: { query } })) items.push(project);
        else items.push(...(await context.api.get('/v1/projects', { params: { query } })).data);
        context.out.result({ data: items }, () => projectTable(items));
        return 0;
      },
    },
    create: {
      summary: 'create a project',
      options: {
        name: { type: 'string', description: 'its name (required)' },
        repository: { type: 'string', description: 'https:// (or, locally, file:///) URL of its git repository (required)' },
        description: { type: 'string', description: 'what it is' },
      },
      async run(context) {
        const { data } = await context.api.post('/v1/projects', {
          body: {
            name: required(context, 'name'),
            repository: required(context, 'repository'),
            description: optionalString(context, 'description'),
          },
        });
        context.out.result(data, () => `Created project ${data.id} (${data.name}).`);
        return 0;
      },
    },
    get: {
      summary: 'show a project',
      args: '<project_id>',
      async run(context) {
        const { data } = await context.api.get('/v1/projects/{id}', { params: { path: { id: argument(context, 0, 'the project id') } } });
        context.out.result(data, () => projectTable([data]) + (data.description ? `\n\n${data.description}` : ''));
        return 0;
      },
    },
  },
};
