import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { verifyWebhookSignature } from '../../functions/core/webhooks/signature';
import { as } from './support/http';
import { eventually, startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { newPerson, webClient } from './support/web-client';
import { createWebhook } from './support/webhooks';
import { fixtureRepository, gitOutput, waitForWorkflow } from './support/workflows';

type Api = ReturnType<typeof as>;

// Assembled at run time so no source file holds a token-shaped literal.
const githubToken = ['ghp', '_', 'Zq3', 'k9L'.repeat(2), 'Xw2mN8vR4tY6uB1cD5eF7gH0jK2lM'].join('').slice(0, 40);

const numbered = (count: number, name: string) => Array.from({ length: count }, (_, i) => `export const ${name}${i + 1} = ${i + 1};`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

const legacyOnMain = numbered(20, 'legacy');
legacyOnMain[0] = 'export const old = (code) => eval(code);';

const mainFiles: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }, null, 2)}\n`,
  'README.md': '# Shop\n',
  'src/limits.ts': text(numbered(12, 'value')),
  // An eval main already has: not the change's doing.
  'src/legacy.js': text(legacyOnMain),
};

/** Planted on `feature`: a type error on line 5, an eval on line 2, a token on line 2; legacy.js gains a harmless line 16. */
const featureFiles = (): Record<string, string | Buffer> => {
  const limits = numbered(12, 'value');
  limits[4] = "export const limit: number = 'ten';";
  const legacy = [...legacyOnMain];
  legacy[15] = 'export const legacy16 = 16 * 2;';
  return {
    'src/limits.ts': text(limits),
    'src/legacy.js': text(legacy),
    'src/run.js': 'export const ok = 1;\nexport const run = (input) => eval(input);\n',
    'config/deploy.js': `export const region = 'eu-west-1';\nexport const github = '${githubToken}';\n`,
    'package-lock.json': `${JSON.stringify({ name: 'shop', lockfileVersion: 3, packages: {} }, null, 2)}\n`,
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]),
  };
};

/** A real repository with `main` and `feature`; main moves on after the fork (README), which no review must show. */
const twoBranchRepository = async () => {
  const repository = await fixtureRepository(mainFiles);
  gitOutput(repository.dir, 'checkout', '-q', '-b', 'feature');
  for (const [path, content] of Object.entries(featureFiles())) {
    await mkdir(dirname(join(repository.dir, path)), { recursive: true });
    await writeFile(join(repository.dir, path), content);
  }
  gitOutput(repository.dir, 'add', '-A');
  gitOutput(repository.dir, 'commit', '-q', '-m', 'Feature');
  const featureCommit = gitOutput(repository.dir, 'rev-parse', 'HEAD');
  gitOutput(repository.dir, 'checkout', '-q', 'main');
  await writeFile(join(repository.dir, 'README.md'), '# Shop\n\nMoved on.\n');
  gitOutput(repository.dir, 'commit', '-q', '-am', 'Main moves on');
  return { ...repository, featureCommit };
};

const waitForReview = async (api: Api, id: string): Promise<any> => {
  let last: any;
  return eventually(
    async () => {
      last = (await api.get(`/reviews/${id}`)).body?.data;
      return last && ['completed', 'failed'].includes(last.status) ? last : undefined;
    },
    90_000,
    () => `review ${id} is ${last?.status}: ${last?.error}`,
    200,
  );
};

const secretIn = (value: unknown) => JSON.stringify(value).includes(githubToken);

describe('code reviews', () => {
  let receiver: Receiver;
  afterAll(() => receiver?.close());

  it('comments the planted issues on the changed lines, not the same issue on an unchanged line, and sends signed events in order', async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    receiver = await startReceiver();
    const hook = await createWebhook(api, { url: receiver.url(), events: ['review.comment.created', 'review.completed'] });
    const repository = await twoBranchRepository();
    const project = (await api.post('/projects', { name: 'Shop', repository: repository.url })).body.data;

    const created = await api.post('/reviews', { project_id: project.id, head: 'feature', instructions: 'Focus on input handling.' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      project_id: project.id,
      workflow_id: null,
      base: null,
      head: 'feature',
      ai_provider: 'local',
      instructions: 'Focus on input handling.',
      status: 'queued',
      verdict: null,
    });
    expect(created.body.data.id).toMatch(/^rev_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/reviews/${created.body.data.id}$`));

    const review = await waitForReview(api, created.body.data.id);
    expect(review).toMatchObject({
      status: 'completed',
      base_ref: 'main',
      merge_base: repository.commit,
      head_commit: repository.featureCommit,
      verdict: 'request_changes',
      error: null,
      ai_usage: { provider: 'local', requests: 1 },
    });
    expect(review.duration_ms).toBeGreaterThanOrEqual(0);
    const status = Object.fromEntries(review.files.map((file: any) => [file.path, [file.change, file.status, file.reason]]));
    expect(status).toEqual({
      'assets/logo.png': ['added', 'skipped', 'binary file'],
      'config/deploy.js': ['added', 'reviewed', null],
      'package-lock.json': ['added', 'skipped', 'generated: a lockfile'],
      'src/legacy.js': ['modified', 'reviewed', null],
      'src/limits.ts': ['modified', 'reviewed', null],
      'src/run.js': ['added', 'reviewed', null],
    });
    // README.md changed on main after the fork: not part of the change.
    expect(review.files_total).toBe(6);

    const listed = await api.get(`/reviews/${review.id}/comments?order=asc&per_page=100`);
    expect(listed.status).toBe(200);
    const comments = listed.body.data;
    const places = comments.map((comment: any) => [comment.path, comment.line, comment.source, comment.severity]);
    expect(places).toEqual([
      ['config/deploy.js', 2, 'analysis', 'critical'],
      ['src/limits.ts', 5, 'analysis', 'high'],
      ['src/run.js', 2, 'analysis', expect.any(String)],
    ]);
    expect(comments.map((comment: any) => comment.rule)).toEqual([
      'secretlint/github/GITHUB_TOKEN',
      'typescript/TS2322',
      expect.stringMatching(/eval/),
    ]);
    expect(comments[1].body).toContain("TS2322: Type 'string' is not assignable to type 'number'.");
    // The eval on line 1 of legacy.js is old code: no comment; it is counted.
    expect(comments.some((comment: any) => comment.path === 'src/legacy.js')).toBe(false);
    expect(review.counts).toMatchObject({ comments: 3, by_source: { analysis: 3, ai: 0 }, dropped: { outside_diff: 1 } });
    expect(review.counts.by_severity.critical).toBe(1);
    for (const comment of comments) {
      expect(comment).toMatchObject({ review_id: review.id, project_id: project.id, start_line: null, suggestion: null });
      expect(comment.id).toMatch(/^rvc_/);
    }
    expect(review.summary).toMatch(/found 3 issues on the changed lines/);

    // Events: one per comment, then review.completed, all signed with the webhook's secret.
    const requests = await receiver.waitFor(comments.length + 1, 30_000);
    for (const request of requests) {
      expect(verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, hook.secret)).toBe(true);
    }
    const events = requests.map((request) => JSON.parse(request.body));
    expect(events.map((event) => event.type).sort()).toEqual([...comments.map(() => 'review.comment.created'), 'review.completed'].sort());
    const completed = events.find((event) => event.type === 'review.completed');
    const commentEvents = events.filter((event) => event.type === 'review.comment.created');
    // In order: every comment was recorded before (or in the same millisecond as) the completion.
    for (const event of commentEvents) expect(event.created_at <= completed.created_at).toBe(true);
    expect(commentEvents.map((event) => event.data).sort((a, b) => a.id.localeCompare(b.id))).toEqual(comments);
    expect(requests.map((request) => request.headers['x-service-event-type'])).toEqual(events.map((event) => event.type));
    expect(completed.data).toEqual({
      review_id: review.id,
      project_id: project.id,
      workflow_id: null,
      status: 'completed',
      verdict: 'request_changes',
      comments: 3,
      by_severity: review.counts.by_severity,
      dropped_comments: review.counts.dropped,
      head_commit: repository.featureCommit,
      merge_base: repository.commit,
      error: null,
      duration_ms: review.duration_ms,
    });
    // Nothing any answer or event carried held the token.
    expect(secretIn(review) || secretIn(comments) || requests.some((request) => request.body.includes(githubToken))).toBe(false);

    // Filters, pagination and the review list.
    const critical = await api.get(`/reviews/${review.id}/comments?severity=critical`);
    expect(critical.body.data.map((comment: any) => comment.path)).toEqual(['config/deploy.js']);
    const onRun = await api.get(`/reviews/${review.id}/comments?path=src/run.js`);
    expect(onRun.body.data.map((comment: any) => comment.line)).toEqual([2]);
    // An empty path names no file: refused, not a list whose total disagrees with its items.
    const emptyPath = await api.get(`/reviews/${review.id}/comments?path=`);
    expect([emptyPath.status, emptyPath.body.error.details.field]).toEqual([422, 'path']);
    const first = await api.get(`/reviews/${review.id}/comments?order=asc&per_page=2`);
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await api.get(next!.slice(next!.indexOf('/v1') + 3));
    expect(second.body.data.map((comment: any) => comment.id)).toEqual([comments[2].id]);
    const mine = await api.get(`/reviews?project_id=${project.id}&status=completed`);
    expect(mine.body.data.map((item: any) => item.id)).toEqual([review.id]);
    expect((await api.get(`/reviews?project_id=${project.id}&status=failed`)).body.data).toEqual([]);
  });

  it('fails a review whose head does not exist, saying why, with review.completed; the project page shows it', async () => {
    const person = await newPerson();
    const api = as(person.live.key);
    const repository = await fixtureRepository(mainFiles);
    const project = (await api.post('/projects', { name: 'Shop', repository: repository.url })).body.data;
    const created = await api.post('/reviews', { project_id: project.id, head: 'no-such-branch' });
    const review = await waitForReview(api, created.body.data.id);
    expect(review).toMatchObject({ status: 'failed', verdict: null, error: 'branch no-such-branch was not found in the repository' });
    const events = await api.get('/events?type=review.completed');
    expect(events.body.data.map((event: any) => [event.data.review_id, event.data.status])).toEqual([[review.id, 'failed']]);

    const browser = webClient();
    await browser.signIn(person.email, person.password);
    const page = await browser.get(`/dashboard/projects/${project.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2>Code reviews</h2>');
    expect(page.text).toContain(`<code>${review.id}</code> <code class="break">no-such-branch</code>`);
  });

  it('refuses bad input with 422, answers 404 for unknown reviews, and needs the reviews scopes', async () => {
    const account = await newAccount();
    const api = as(account.test.key);
    const repository = await fixtureRepository(mainFiles);
    const project = (await api.post('/projects', { name: 'Shop', repository: repository.url })).body.data;
    const refused = async (body: unknown, field: string) => {
      const answer = await api.post('/reviews', body);
      expect([answer.status, answer.body.error.code, answer.body.error.details.field]).toEqual([422, 'validation_error', field]);
    };
    await refused({ project_id: project.id }, 'head');
    await refused({ project_id: project.id, head: 'bad..name' }, 'head');
    await refused({ project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G', head: 'feature' }, 'project_id');
    await refused({ project_id: project.id, head: 'feature', ai_provider: 'nope' }, 'ai_provider');
    await refused({ project_id: project.id, head: 'main', base: 'main' }, 'base');
    await refused({ project_id: project.id, head: 'feature', extra: 1 }, 'extra');
    // Instructions are text for a model: no NUL, ESC or lone surrogate (as a workflow's prompt).
    for (const instructions of ['stop\u0000here', 'colour \u001b[31m', 'half \ud800']) {
      await refused({ project_id: project.id, head: 'feature', instructions }, 'instructions');
    }

    expect((await api.get('/reviews/rev_01JD2QD4J8K0M2N4P6R8S0T2V4')).status).toBe(404);
    expect((await api.get('/reviews/nonsense')).status).toBe(404);
    expect((await api.get('/reviews/rev_01JD2QD4J8K0M2N4P6R8S0T2V4/comments')).status).toBe(404);
    expect((await api.get('/reviews?status=done')).status).toBe(422);

    const reader = as((await account.newKey('test', ['read:projects'])).key);
    const denied = await reader.get('/reviews');
    expect([denied.status, denied.body.error.code, denied.body.error.details]).toEqual([
      403,
      'insufficient_scope',
      { required_scope: 'read:reviews' },
    ]);
    const readOnly = as((await account.newKey('ro', ['read:reviews'])).key);
    expect((await readOnly.get('/reviews')).status).toBe(200);
  });

  it("reviews a workflow's change in verify: the review id in its outputs, the review and its events those of any review", async () => {
    const { test: key } = await newAccount();
    const api = as(key.key);
    const repository = await fixtureRepository(mainFiles);
    const project = (await api.post('/projects', { name: 'Shop', repository: repository.url })).body.data;
    const fence = '```';
    const prompt = `Add a runner\n\n${fence}js src/runner.js\nexport const go = (input) => eval(input);\n${fence}\n\n${fence}js src/fine.js\nexport const fine = 1;\n${fence}\n`;
    const created = await api.post('/workflows', { project_id: project.id, prompt, config: { ai_provider: 'local' } });
    expect(created.body.data.config.review).toBe(true);
    const done = await waitForWorkflow(api, created.body.data.id, undefined, 90_000);
    // verify found the eval, iterate dropped that file, verify passed on the rest: a review per verify run.
    expect(done).toMatchObject({ status: 'completed', outputs: { iterations: 1 } });
    const reviews = (await api.get(`/reviews?project_id=${project.id}&order=asc`)).body.data;
    expect(reviews).toHaveLength(2);
    const [first, last] = reviews;
    expect(done.outputs.review).toEqual({ id: last.id, status: 'completed', verdict: 'approve', comments: 0, blocking: 0 });
    for (const review of reviews) {
      expect(review).toMatchObject({
        workflow_id: done.id,
        project_id: project.id,
        base: 'main',
        head: null,
        merge_base: repository.commit,
        head_commit: null,
        status: 'completed',
      });
      expect(review.instructions).toContain('Add a runner');
    }
    expect(first.verdict).toBe('request_changes');
    const firstComments = (await api.get(`/reviews/${first.id}/comments`)).body.data;
    expect(firstComments.map((comment: any) => [comment.path, comment.line, comment.source])).toEqual([['src/runner.js', 1, 'analysis']]);
    expect(last.files.map((file: any) => file.path)).toEqual(['src/fine.js']);
    const events = await api.get('/events?type=review.completed');
    expect(events.body.data.filter((event: any) => event.data.workflow_id === done.id)).toHaveLength(2);

    const off = await api.post('/workflows', {
      project_id: project.id,
      prompt: `Add a helper\n\n${fence}js src/helper.js\nexport const helper = 1;\n${fence}\n`,
      config: { ai_provider: 'local', review: false },
    });
    const plain = await waitForWorkflow(api, off.body.data.id, undefined, 60_000);
    expect(plain).toMatchObject({ status: 'completed', config: { review: false }, outputs: { review: null } });
    expect(plain.ai_usage.calls).toBe(2);
  });
});
