import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitChangeReader } from '../../../functions/adapters/repository/change-reader';
import { scratchFolders } from '../../../functions/adapters/workspace/working-tree';
import type { Project } from '../../../functions/core/projects/project';
import { newReview } from '../../../functions/core/reviews/review-use-cases';
import { ReviewAlreadyRunning, runReviewJob, type ReviewJobDeps } from '../../../functions/core/reviews/run-review';
import type { Tenant } from '../../../functions/core/tenancy';
import { sastScanner } from '../../../functions/engines/scanners/sast/sast-scanner';
import { secretsScanner } from '../../../functions/engines/scanners/secrets-scanner';
import { verifyChangedFiles } from '../../../functions/engines/verification/check-files';
import { controlledClock } from '../fakes/clock';
import { answer, scriptedReviewProvider } from '../fakes/review-ai-provider';
import { inMemoryReviewRepository } from '../fakes/review-repository';
import { gitCli, tempRoot } from '../repository/git-fixtures';

/**
 * A review job end to end on a real git repository with two branches, the real type check and
 * scanners, and a scripted AI provider: the change is read from the merge base, planted issues on
 * changed lines become comments on the right lines, the same issues on unchanged lines do not, and
 * what the AI says outside the diff is dropped and counted.
 */

const tenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';
// Assembled at run time so no source file holds a token-shaped literal.
const githubToken = ['ghp', '_', 'Zq3', 'k9L'.repeat(2), 'Xw2mN8vR4tY6uB1cD5eF7gH0jK2lM'].join('').slice(0, 40);

const write = async (root: string, files: Record<string, string>) => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
};

const numbered = (count: number, name: string) => Array.from({ length: count }, (_, i) => `export const ${name}${i + 1} = ${i + 1};`);

let root: Awaited<ReturnType<typeof tempRoot>>;
let url: string;

beforeAll(async () => {
  root = await tempRoot();
  const repo = join(root.path, 'repo');
  await mkdir(repo);
  gitCli(repo, 'init', '--quiet', '--initial-branch=main');
  const legacy = numbered(20, 'legacy');
  legacy[0] = 'export const old = (code) => eval(code);';
  await write(repo, {
    'README.md': '# Shop\n',
    'src/limits.ts': `${numbered(12, 'value').join('\n')}\n`,
    'src/legacy.js': `${legacy.join('\n')}\n`,
  });
  gitCli(repo, 'add', '-A');
  gitCli(repo, 'commit', '--quiet', '-m', 'initial');
  gitCli(repo, 'checkout', '--quiet', '-b', 'feature');
  const limits = numbered(12, 'value');
  limits[4] = "export const limit: number = 'ten';";
  legacy[15] = 'export const legacy16 = 16 * 2;';
  await write(repo, {
    'src/limits.ts': `${limits.join('\n')}\n`,
    'src/legacy.js': `${legacy.join('\n')}\n`,
    'src/run.js': 'export const ok = 1;\nexport const run = (input) => eval(input);\n',
    'config/deploy.js': `export const region = 'eu-west-1';\nexport const github = '${githubToken}';\n`,
  });
  gitCli(repo, 'add', '-A');
  gitCli(repo, 'commit', '--quiet', '-m', 'feature');
  gitCli(repo, 'checkout', '--quiet', 'main');
  url = `file://${repo}`;
});
afterAll(() => root.remove());

const setUp = (script: Parameters<typeof scriptedReviewProvider>[0], head = 'feature') => {
  const store = inMemoryReviewRepository();
  store.addProject(tenant, projectId);
  const { provider, tasks } = scriptedReviewProvider(script);
  const project: Project = {
    id: projectId,
    name: 'Shop',
    repository: url,
    description: '',
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
  } as Project;
  const deps: ReviewJobDeps = {
    reviews: store.repository,
    projects: { get: async (_tenant, id) => (id === projectId ? project : undefined) },
    clock: controlledClock(),
    changes: gitChangeReader({ fileRepositories: true }),
    scratch: scratchFolders('review-test-'),
    analyser: { checkFiles: verifyChangedFiles, scanners: [secretsScanner(), sastScanner()] },
    aiProvider: async () => provider,
  };
  const review = newReview({
    id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
    project_id: projectId,
    workflow_id: null,
    base: null,
    head,
    ai_provider: provider.name,
    instructions: null,
    now: '2026-11-21T10:00:00.000Z',
  });
  store.put(tenant, review);
  const ref = { account_id: tenant.accountId, mode: tenant.mode, id: review.id };
  return { store, tasks, deps, ref };
};

describe('a review job on a real repository', () => {
  it('comments the planted issues on the changed lines, not the same issue on an unchanged line, and drops what the AI says outside the diff', async () => {
    const { store, tasks, deps, ref } = setUp(() =>
      answer({
        summary: 'eval on input is dangerous; the limit has the wrong type.',
        verdict: 'comment',
        comments: [
          {
            path: 'src/run.js',
            start_line: null,
            line: 2,
            severity: 'medium',
            category: 'security',
            body: 'Parse the input instead.',
            suggestion: null,
          },
          // Line 1 of legacy.js is far from its hunk (line 16): not in the diff.
          {
            path: 'src/legacy.js',
            start_line: null,
            line: 1,
            severity: 'high',
            category: 'security',
            body: 'eval here too.',
            suggestion: null,
          },
          // README.md is not part of the change.
          { path: 'README.md', start_line: null, line: 1, severity: 'low', category: 'style', body: 'Say more.', suggestion: null },
          {
            path: 'src/legacy.js',
            start_line: null,
            line: 16,
            severity: 'low',
            category: 'maintainability',
            body: 'Name the factor.',
            suggestion: 'export const legacy16 = 16 * FACTOR;',
          },
        ],
      }),
    );
    const review = await runReviewJob(deps, ref);
    expect(review).toMatchObject({ status: 'completed', base_ref: 'main', verdict: 'request_changes', error: null });

    const placed = store.comments.map(({ path, line, source, rule, severity }) => ({ path, line, source, rule, severity }));
    expect(placed).toEqual([
      { path: 'config/deploy.js', line: 2, source: 'analysis', rule: 'secretlint/github/GITHUB_TOKEN', severity: 'critical' },
      { path: 'src/legacy.js', line: 16, source: 'ai', rule: null, severity: 'low' },
      { path: 'src/limits.ts', line: 5, source: 'analysis', rule: 'typescript/TS2322', severity: 'high' },
      { path: 'src/run.js', line: 2, source: 'analysis', rule: expect.stringMatching(/eval/), severity: expect.any(String) },
      { path: 'src/run.js', line: 2, source: 'ai', rule: null, severity: 'medium' },
    ]);
    // The eval on line 1 of legacy.js is as dangerous, but the change did not write it.
    expect(placed.some((comment) => comment.path === 'src/legacy.js' && comment.line === 1)).toBe(false);
    expect(review?.counts?.dropped.outside_diff).toBeGreaterThanOrEqual(3);
    expect(store.comments.find((comment) => comment.line === 16)?.suggestion?.patch).toContain('+export const legacy16 = 16 * FACTOR;');

    // The AI saw the change from the merge base, but never the token.
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.files.map((file) => file.path)).toEqual(['config/deploy.js', 'src/legacy.js', 'src/limits.ts', 'src/run.js']);
    expect(JSON.stringify(tasks)).not.toContain(githubToken);
    expect(JSON.stringify(store.comments)).not.toContain(githubToken);
    expect(JSON.stringify(store.events)).not.toContain(githubToken);

    expect(store.events.map((event) => event.type)).toEqual([...store.comments.map(() => 'review.comment.created'), 'review.completed']);
  });

  it('fails with the reason when head does not exist, announced by review.completed', async () => {
    const { store, deps, ref } = setUp(() => answer(), 'no-such-branch');
    const reported: unknown[] = [];
    const review = await runReviewJob(
      { ...deps, reportFailure: (error, failed) => reported.push([failed.id, (error as Error).message]) },
      ref,
    );
    expect(review).toMatchObject({ status: 'failed', error: 'branch no-such-branch was not found in the repository' });
    expect(store.events).toEqual([{ type: 'review.completed', data: expect.objectContaining({ status: 'failed', verdict: null }) }]);
    // The operator's log is told too.
    expect(reported).toEqual([[ref.id, expect.stringContaining('no-such-branch')]]);
  });

  it('fails when the AI provider fails, storing no comment', async () => {
    const { store, deps, ref } = setUp(() => new Error('anthropic: 400 the request was refused'));
    const review = await runReviewJob(deps, ref);
    expect(review).toMatchObject({ status: 'failed', error: 'anthropic: 400 the request was refused' });
    expect(store.comments).toEqual([]);
  });

  it('fails after storing some comments: review.completed counts the comments it stored', async () => {
    const { store, deps, ref } = setUp(() => answer());
    const storeComment = store.repository.addComment.bind(store.repository);
    let stored = 0;
    store.repository.addComment = async (t, comment, event) => {
      if (stored === 2) throw new Error('the table is unavailable');
      stored += 1;
      return storeComment(t, comment, event);
    };
    const review = await runReviewJob({ ...deps, reportFailure: () => {} }, ref);
    expect(review).toMatchObject({ status: 'failed', error: 'the table is unavailable', counts: { comments: 2 } });
    const severities = store.comments.map((comment) => comment.severity);
    const completed = store.events.find((event) => event.type === 'review.completed');
    expect(completed?.data).toMatchObject({ status: 'failed', comments: 2 });
    const bySeverity = completed?.data.by_severity as Record<string, number>;
    expect(Object.values(bySeverity).reduce((sum, n) => sum + n, 0)).toBe(2);
    for (const severity of severities) expect(bySeverity[severity]).toBeGreaterThan(0);
  });

  it('runs once: a second delivery of a finished job changes nothing; one that finds it running throws for the safety net', async () => {
    const { store, deps, ref } = setUp(() => answer());
    const first = await runReviewJob(deps, ref);
    expect(first?.status).toBe('completed');
    const again = await runReviewJob(deps, ref);
    expect(again).toEqual(first);
    store.put(tenant, { ...first!, status: 'running', revision: first!.revision + 1 });
    await expect(runReviewJob(deps, ref)).rejects.toBeInstanceOf(ReviewAlreadyRunning);
  });
});
