import { renderToString } from 'preact-render-to-string';
import type { Project } from '../../../functions/core/projects/project';
import type { Shell } from '../../../functions/pages/dashboard-shell';
import { ApplicationsPage } from '../../../functions/pages/views/dashboard/developers/applications';
import { DeploymentsPage } from '../../../functions/pages/views/dashboard/deployments/deployments';
import { ProjectPage } from '../../../functions/pages/views/dashboard/projects/project';
import { SecurityPage } from '../../../functions/pages/views/dashboard/security/security';
import { adminShell } from '../fakes/dashboard-shell';

/** The text of each empty list's message, as a person reads it. */
const emptyStates = (html: string): string[] =>
  [...html.matchAll(/<p class="empty muted">([\s\S]*?)<\/p>/g)].map(([, text = '']) =>
    text
      .replace(/<[^>]*>/g, '')
      .replace(/&rsquo;/g, '’')
      .replace(/&#x27;/g, "'"),
  );

const paged = { page: 1, totalPages: 1, total: 0, hrefOf: (page: number) => `?page=${page}` };

/** A new team's pages, before anything ran: each empty list says what starts one. */
describe('empty lists of the dashboard', () => {
  it("a new project's page says, for each kind of record, the call that starts one for it", () => {
    const project: Project = {
      id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
      name: 'Shop',
      repository: 'file:///tmp/shop',
      description: '',
      created_at: '2026-11-21T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
    } as Project;
    const html = renderToString(
      ProjectPage({
        shell: adminShell(`/dashboard/projects/${project.id}`),
        project,
        workflows: [],
        scans: [],
        findings: [],
        deployments: [],
        reviews: [],
        testRuns: [],
        etag: '"1"',
      }),
    );
    expect(emptyStates(html)).toEqual([
      'No workflows yet. Start one with POST /v1/workflows and this project’s id.',
      'No scans yet. Start one with POST /v1/security/scans and this project’s id.',
      'No open findings.',
      'No deployments yet. Start one with POST /v1/deployments and this project’s id.',
      'No test runs yet. Start one with POST /v1/tests/run and this project’s id.',
      'No code reviews yet. Start one with POST /v1/reviews and this project’s id, or run a workflow: it reviews its own change.',
    ]);
  });

  it('the Deployments and Security lists say how their records come', () => {
    const shell = adminShell('/dashboard/deployments');
    expect(emptyStates(renderToString(DeploymentsPage({ shell, deployments: [], filters: {}, ...paged })))).toEqual([
      'No deployments match. Start one with POST /v1/deployments.',
    ]);
    expect(emptyStates(renderToString(SecurityPage({ shell, findings: [], scans: [], filters: {}, ...paged })))[0]).toBe(
      'No findings match. Scans report them: start one with POST /v1/security/scans.',
    );
  });

  it('the Applications list says who registers one: an admin below, a viewer asks an admin', () => {
    const viewer: Shell = { ...adminShell('/dashboard/developers/applications'), role: 'viewer' };
    expect(emptyStates(renderToString(ApplicationsPage({ shell: adminShell(viewer.path), applications: [] })))).toEqual([
      'No applications yet. Register one below.',
    ]);
    expect(emptyStates(renderToString(ApplicationsPage({ shell: viewer, applications: [] })))).toEqual([
      'No applications yet. An admin of the account registers them.',
    ]);
  });
});
