import type { Project } from '../../../../core/projects/project';
import type { Shell } from '../../../dashboard-shell';
import { Layout } from '../../../layout';
import { Alert } from '../../../parts/alert';
import { Card } from '../../../parts/card';
import { SelectField } from '../../../parts/choice-fields';
import { FormCard } from '../../../parts/form-card';
import { emptyList, FilterForm, InputFilter } from '../../../parts/list-filters';
import { type Paged, Pagination } from '../../../parts/pagination';
import { RecordTable } from '../../../parts/record-table';
import { TextField } from '../../../parts/text-field';
import { Time } from '../../../parts/time';

export interface ProjectForm {
  name: string;
  repository: string;
  description: string;
}

/** The project's fields; `errors`, what is wrong with each, shown beside it. */
export const ProjectFields = ({ form, errors = {} }: { form: ProjectForm; errors?: Record<string, string> }) => (
  <>
    <TextField label="Name" name="name" value={form.name} required maxLength={100} error={errors.name} />
    <TextField
      label="Repository"
      name="repository"
      value={form.repository}
      required
      maxLength={2048}
      hint="An https:// URL (ssh:// and git@host:path addresses are refused: the service fetches over https), or a file:/// URL in the local runtime."
      error={errors.repository}
    />
    <TextField label="Description" name="description" value={form.description} maxLength={2000} error={errors.description} />
  </>
);

/** The form's fields filled from a project as it is stored. */
export const projectFormOf = (project: Pick<Project, 'name' | 'repository' | 'description'>): ProjectForm => ({
  name: project.name,
  repository: project.repository,
  description: project.description,
});

/** How the project form's fields are named in a summary of its errors. */
export const projectFieldLabels = { name: 'Name', repository: 'Repository', description: 'Description' };

export interface ProjectsPageProps extends Paged {
  shell: Shell;
  projects: Project[];
  filters: { sort: string; order: string; created_after: string; created_before: string };
  /** What is wrong with each refused filter (400): shown beside it, and nothing listed. */
  filterErrors?: Record<string, string>;
  notice?: string;
  errors?: string[];
  fieldErrors?: Record<string, string>;
  form?: ProjectForm;
}

export const ProjectsPage = (props: ProjectsPageProps) => {
  const { shell } = props;
  return (
    <Layout title="Projects" shell={shell}>
      <h1>Projects</h1>
      {props.notice && <Alert kind="success">{props.notice}</Alert>}
      <Card>
        <FilterForm action="/dashboard/projects" label="Sort and filter projects" submit="Apply" errors={props.filterErrors}>
          <SelectField
            label="Sort by"
            name="sort"
            value={props.filters.sort}
            options={[
              { value: 'created_at', label: 'Created' },
              { value: 'updated_at', label: 'Updated' },
              { value: 'name', label: 'Name' },
            ]}
            error={props.filterErrors?.sort}
          />
          <SelectField
            label="Order"
            name="order"
            value={props.filters.order}
            options={[
              { value: 'desc', label: 'Descending' },
              { value: 'asc', label: 'Ascending' },
            ]}
            error={props.filterErrors?.order}
          />
          <InputFilter
            label="Created on or after"
            name="created_after"
            type="date"
            value={props.filters.created_after}
            error={props.filterErrors?.created_after}
          />
          <InputFilter
            label="Created before"
            name="created_before"
            type="date"
            value={props.filters.created_before}
            error={props.filterErrors?.created_before}
          />
        </FilterForm>
        <RecordTable
          caption="Projects"
          headings={['Name', 'Repository', 'Created', 'Updated']}
          records={props.projects}
          empty={emptyList(props.filterErrors, `No projects match in ${shell.mode} mode. Create one below.`)}
          row={(project) => (
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
          )}
        />
        <Pagination {...props} />
      </Card>
      {shell.role === 'admin' && (
        <FormCard
          title="Create a project"
          action="/dashboard/projects"
          csrfToken={shell.viewer.csrfToken}
          errors={props.errors}
          submit="Create"
        >
          <ProjectFields errors={props.fieldErrors} form={props.form ?? { name: '', repository: '', description: '' }} />
        </FormCard>
      )}
    </Layout>
  );
};
