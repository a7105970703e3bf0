import { renderToString } from 'preact-render-to-string';
import { newEvent, type ServiceEvent } from '../../../functions/core/events/event';
import { eventCatalogue, eventTypes } from '../../../functions/core/events/event-types';
import { HomePage } from '../../../functions/pages/views/dashboard/home';
import { adminShell } from '../fakes/dashboard-shell';

const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';
const at = Date.parse('2026-11-21T10:00:00.000Z');

const home = (events: ServiceEvent[]) =>
  renderToString(
    HomePage({
      shell: adminShell('/dashboard'),
      counts: { runningWorkflows: 0, openCriticalFindings: 0, deploymentsInProgress: 0, failedWebhooks: 0 },
      events,
      accountEmail: 'admin@example.com',
    }),
  );

/** The Activity table's Object cell of each row, as its text and link. */
const objects = (html: string): [string, string | null][] =>
  [...html.matchAll(/<tr><td><code>[^<]*<\/code><\/td><td>(.*?)<\/td>/g)].map(([, cell = '']) => {
    const link = /<a href="([^"]*)">([^<]*)<\/a>/.exec(cell);
    return link ? [link[2] ?? '', link[1] ?? ''] : [cell.replace(/<[^>]*>/g, ''), null];
  });

describe("Home's activity", () => {
  it("names what each event is about and links to the page that shows it: a review's on its project's page", () => {
    const html = home([
      newEvent('workflow.created', { id: 'wf_01JD2Q9A0B1C2D3E4F5G6H7J8K', project_id: projectId }, at),
      newEvent('review.completed', { review_id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4', project_id: projectId, status: 'completed' }, at),
      newEvent(
        'review.comment.created',
        { id: 'rvc_01JD2QF6M0N2P4R6S8T0V2W4X6', review_id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4', project_id: projectId },
        at,
      ),
      newEvent('review.completed', { review_id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V5' }, at),
      newEvent('workflow.failed', {}, at),
    ]);
    expect(objects(html)).toEqual([
      ['wf_01JD2Q9A0B1C2D3E4F5G6H7J8K', '/dashboard/workflows/wf_01JD2Q9A0B1C2D3E4F5G6H7J8K'],
      ['rev_01JD2QD4J8K0M2N4P6R8S0T2V4', `/dashboard/projects/${projectId}`],
      ['rvc_01JD2QF6M0N2P4R6S8T0V2W4X6', `/dashboard/projects/${projectId}`],
      ['rev_01JD2QD4J8K0M2N4P6R8S0T2V5', null],
      ['—', null],
    ]);
  });

  it('names the object of every event type of the catalogue, as its example carries it', () => {
    const html = home(eventTypes.map((type) => newEvent(type, eventCatalogue[type].example, at)));
    const unnamed = objects(html)
      .map(([id], index) => [eventTypes[index], id])
      .filter(([, id]) => !/^[a-z]+_[0-9A-Z]{26}$/.test(id ?? ''));
    expect(unnamed).toEqual([]);
    // A stage completed and a workflow completed carry the workflow as `workflow_id`: linked to its page.
    const completed = objects(home([newEvent('workflow.completed', eventCatalogue['workflow.completed'].example, at)]));
    expect(completed).toEqual([[expect.stringMatching(/^wf_/), expect.stringMatching(/^\/dashboard\/workflows\/wf_/)]]);
  });

  it('says which events appear when there are none, and that projects send none', () => {
    expect(home([])).toContain('They appear here as workflows, security scans, deployments and code reviews run');
  });
});
