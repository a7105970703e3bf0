import type { Project } from '../../../../core/projects/project';
import { Alert, Button, Card, ErrorSummary, PostForm, TextField } from '../../../components';
import { Empty, Pagination, SelectField, Time } from '../../../dashboard-components';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';

export interface ProjectForm {
  name: string;
  repository: string;
  description: string;
}

export const ProjectFields = ({ form }: { form: ProjectForm }) => (
  <>
    <TextField label="Name" name="name" value={form.name} required maxLength={100} />
    <TextField
      label="Repository"
      name="repository"
      value={form.repository}
      required
      maxLength={2048}
      hint="An https:// URL, an ssh:// or git@host:path address, or a file:/// URL (local use)."
    />
    <TextField label="Description" name="description" value={form.description} maxLength={2000} />
  </>
);

export interface ProjectsPageProps {
  shell: Shell;
  projects: Project[];
  page: number;
  totalPages: number;
  total: number;
  filters: { sort: string; order: string; created_after: string; created_before: string };
  hrefOf(page: number): string;
  notice?: string;
  errors?: string[];
  form?: ProjectForm;
}

export const ProjectsPage = (props: ProjectsPageProps) => {
  const { shell } = props;
  return (
    <Layout title="Projects" shell={shell}>
      <h1>Projects</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <form method="get" action="/dashboard/projects" className="filters-form" aria-label="Sort and filter projects">
          <SelectField
            label="Sort by"
            name="sort"
            value={props.filters.sort}
            options={[
              { value: 'created_at', label: 'Created' },
              { value: 'updated_at', label: 'Updated' },
              { value: 'name', label: 'Name' },
            ]}
          />
          <SelectField
            label="Order"
            name="order"
            value={props.filters.order}
            options={[
              { value: 'desc', label: 'Descending' },
              { value: 'asc', label: 'Ascending' },
            ]}
          />
          <div className="field">
            <label for="field-created_after">Created on or after</label>
            <input id="field-created_after" name="created_after" type="date" value={props.filters.created_after} />
          </div>
          <div className="field">
            <label for="field-created_before">Created before</label>
            <input id="field-created_before" name="created_before" type="date" value={props.filters.created_before} />
          </div>
          <Button variant="secondary">Apply</Button>
        </form>
        {props.projects.length === 0 ? (
          <Empty>No projects match in {shell.mode} mode. Create one below.</Empty>
        ) : (
          <table className="table">
            <caption className="visually-hidden">Projects</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Repository</th>
                <th scope="col">Created</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {props.projects.map((project) => (
                <tr key={project.id}>
                  <th scope="row">
                    <a href={`/dashboard/projects/${encodeURIComponent(project.id)}`}>{project.name}</a>
                  </th>
                  <td className="break">
                    <code>{project.repository}</code>
                  </td>
                  <td>
                    <Time iso={project.created_at} />
                  </td>
                  <td>
                    <Time iso={project.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination page={props.page} totalPages={props.totalPages} total={props.total} hrefOf={props.hrefOf} />
      </Card>
      {shell.role === 'admin' && (
        <Card>
          <h2>Create a project</h2>
          <ErrorSummary messages={props.errors ?? []} />
          <PostForm action="/dashboard/projects" csrfToken={shell.viewer.csrfToken} label="Create a project">
            <ProjectFields form={props.form ?? { name: '', repository: '', description: '' }} />
            <div className="actions">
              <Button>Create</Button>
            </div>
          </PostForm>
        </Card>
      )}
    </Layout>
  );
};
