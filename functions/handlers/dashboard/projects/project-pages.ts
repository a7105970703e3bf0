import { type ProjectSort, projectSortFields } from '../../../core/projects/project';
import { getProject, listProjects } from '../../../core/projects/project-use-cases';
import { entityTagOf } from '../../../core/preconditions';
import { listDeployments } from '../../../core/deployments/deployment-use-cases';
import { listReviews } from '../../../core/reviews/review-use-cases';
import type { TestRun } from '../../../core/testing/test-records';
import { listTests } from '../../../core/testing/test-use-cases';
import { tableFromEnvironment } from '../../../adapters/dynamodb/client';
import { dynamoReviewRepository } from '../../../adapters/dynamodb/review-repository';
import { listFindings, listScans } from '../../../core/security/security-use-cases';
import { listWorkflows } from '../../../core/workflows/workflow-use-cases';
import type { DashboardRequest } from '../../../http/pages/dashboard-page';
import { checkedDay, checkedFilter, type FilterErrors, filtersRefused, listHref, pageListQuery } from '../../../http/pages/list-params';
import type { PageResult } from '../../../http/pages/page-handler';
import { parseWith } from '../../../http/validation';
import { ProjectPage, type ProjectPageProps } from '../../../pages/views/dashboard/projects/project';
import { type ProjectForm, ProjectsPage, type ProjectsPageProps } from '../../../pages/views/dashboard/projects/projects';
import { createProjectBody, updateProjectBody } from '../../../routes/schemas/projects-bodies';
import { deploymentReadDeps } from '../../deployments/deps';
import { deploymentView } from '../../deployments/view';
import { projectDeps } from '../../projects/deps';
import { securityDeps } from '../../security/deps';
import { testReadDeps } from '../../testing/deps';
import { workflowReadDeps } from '../../workflows/deps';

export const projectIdOf = (request: Pick<DashboardRequest, 'event'>): string => request.event.pathParameters?.id ?? '';

export const projectsPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'query'>,
  extra: Partial<ProjectsPageProps> = {},
  status = 200,
): Promise<PageResult> => {
  const base = pageListQuery<ProjectSort>(request.query, { sorts: projectSortFields, defaultSort: 'created_at' });
  // The form offers the sort and order: a value it does not is refused as a filter's is.
  const errors: FilterErrors = {};
  checkedFilter(request.query, 'sort', projectSortFields, errors);
  checkedFilter(request.query, 'order', ['asc', 'desc'], errors);
  const after = checkedDay(request.query, 'created_after', errors);
  const before = checkedDay(request.query, 'created_before', errors);
  const query = { ...base, createdFrom: after.ms, createdUntil: before.ms };
  const refused = filtersRefused(errors);
  const page = refused ? { items: [], total: 0 } : await listProjects(request.tenant, query, projectDeps());
  return {
    status: refused && status === 200 ? 400 : status,
    page: ProjectsPage({
      shell: request.shell,
      projects: page.items,
      page: query.page,
      total: page.total,
      totalPages: Math.ceil(page.total / query.perPage),
      filters: {
        sort: errors.sort ? (request.query.get('sort') ?? '') : query.sort,
        order: errors.order ? (request.query.get('order') ?? '') : query.order,
        created_after: after.text,
        created_before: before.text,
      },
      filterErrors: errors,
      hrefOf: (n) => listHref('/dashboard/projects', request.query, { page: n }),
      ...extra,
    }),
  };
};

const recent = { page: 1, perPage: 5, sort: 'created_at' as const, order: 'desc' as const };

export const projectPage = async (
  request: Pick<DashboardRequest, 'shell' | 'tenant' | 'event'>,
  extra: Partial<ProjectPageProps> = {},
  status = 200,
): Promise<PageResult> => {
  const { tenant } = request;
  const project = extra.project ?? (await getProject(tenant, projectIdOf(request), projectDeps()));
  const filter = { project_id: project.id };
  const [workflows, scans, findings, deployments, reviews, testRuns] = await Promise.all([
    listWorkflows(tenant, recent, filter, workflowReadDeps()),
    listScans(tenant, recent, filter, securityDeps()),
    listFindings(tenant, { ...recent, sort: 'severity' as const, order: 'asc' as const }, { ...filter, status: 'open' }, securityDeps()),
    listDeployments(tenant, recent, filter, deploymentReadDeps()),
    // Only the review records: the page starts no review, so it needs no AI provider or job client.
    listReviews(tenant, recent, filter, { reviews: dynamoReviewRepository(tableFromEnvironment()) }),
    listTests(tenant, recent, { ...filter, object: 'test_run' }, testReadDeps()),
  ]);
  return {
    status,
    page: ProjectPage({
      shell: request.shell,
      project,
      workflows: workflows.items,
      scans: scans.items,
      findings: findings.items,
      deployments: deployments.items.map(deploymentView),
      reviews: reviews.items,
      testRuns: testRuns.items.filter((item): item is TestRun => item.object === 'test_run'),
      etag: entityTagOf(project),
      ...extra,
    }),
  };
};

/** The form's fields as sent, to show again beside its errors. */
export const projectFields = (form: URLSearchParams): ProjectForm => ({
  name: form.get('name') ?? '',
  repository: (form.get('repository') ?? '').trim(),
  description: form.get('description') ?? '',
});

/** Checked by the API's own schemas: the rules of `POST` and `PATCH /v1/projects`. */
export const newProjectOf = (fields: ProjectForm) => parseWith(createProjectBody, fields, 'body');
export const projectChangesOf = (fields: ProjectForm) => parseWith(updateProjectBody, fields, 'body');
