import { AiProviderTransientError } from '../../../functions/core/ai/provider';
import type { StageDeps } from '../../../functions/core/workflows/stages/stage-deps';
import { reviewBuildChange, reviewOutput, withReviewProblems } from '../../../functions/core/workflows/stages/verify-review';
import type { VerificationReport } from '../../../functions/core/workflows/stage-data';
import { newWorkflow, type Workflow } from '../../../functions/core/workflows/workflow';
import { unifiedDiff } from '../../../functions/core/workspace/diff';
import { controlledClock } from '../fakes/clock';
import { answer, scriptedReviewProvider } from '../fakes/review-ai-provider';
import { inMemoryReviewRepository } from '../fakes/review-repository';

const ref = { account_id: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' as const, id: 'wf_01JD2Q9R7W3T0N8M4K6H5G2F1E' };
const tenant = { accountId: ref.account_id, mode: ref.mode };
const projectId = 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G';

const workflow = (): Workflow => {
  const created = newWorkflow({
    id: ref.id,
    project_id: projectId,
    name: undefined,
    prompt: 'Add a farewell helper',
    config: { ai_provider: 'anthropic', auto_deploy: false, branch: null, max_iterations: 2, review: true },
    now: '2026-11-21T10:00:00.000Z',
  });
  return { ...created, status: 'running', outputs: { ...created.outputs, commit: 'c'.repeat(40), branch: 'main' } };
};

const passing: VerificationReport = { passed: true, checks: [{ name: 'syntax', path: 'src/farewell.js', status: 'passed' }], problems: [] };

const setUp = (script: Parameters<typeof scriptedReviewProvider>[0]) => {
  const store = inMemoryReviewRepository();
  store.addProject(tenant, projectId);
  const { provider, tasks } = scriptedReviewProvider(script);
  const lines: string[] = [];
  const log = {
    debug: async () => undefined,
    info: async (line: string) => void lines.push(line),
    warn: async (line: string) => void lines.push(line),
    error: async () => undefined,
  };
  const change = {
    changes: {
      summary: 'Add farewell',
      files: [{ path: 'src/farewell.js', content: 'export const farewell = (name) => `Bye ${name}`;\nexport const x = eval("1");\n' }],
    },
    originals: { 'src/farewell.js': null },
    analysis: { checks: passing, findings: [] },
  };
  // The patch build stored for this change: what the review reads.
  const patch = unifiedDiff(change.originals, change.changes.files);
  const artifacts = { get: async (key: string) => (key.endsWith('/change.patch') ? Buffer.from(patch) : null) };
  const deps = {
    reviews: store.repository,
    clock: controlledClock(),
    aiProvider: async () => provider,
    artifacts,
  } as unknown as StageDeps & {
    reviews: typeof store.repository;
  };
  return { store, tasks, lines, run: () => reviewBuildChange(deps, ref, workflow(), change, log) };
};

describe("verify's review of the build's change", () => {
  it("is a review of the workflow (no head commit), held against the prompt, whose high AI comments become verify's failures", async () => {
    const { store, tasks, lines, run } = setUp(() =>
      answer({
        verdict: 'request_changes',
        comments: [
          {
            path: 'src/farewell.js',
            start_line: null,
            line: 2,
            severity: 'high',
            category: 'security',
            body: 'Do not eval.',
            suggestion: null,
          },
          {
            path: 'src/farewell.js',
            start_line: null,
            line: 1,
            severity: 'low',
            category: 'style',
            body: 'Say goodbye.',
            suggestion: null,
          },
        ],
      }),
    );
    const result = await run();
    expect(result?.review).toMatchObject({
      workflow_id: ref.id,
      project_id: projectId,
      base: 'main',
      head: null,
      merge_base: 'c'.repeat(40),
      head_commit: null,
      status: 'completed',
      verdict: 'request_changes',
    });
    expect(tasks[0]?.instructions).toContain('Add a farewell helper');
    expect(tasks[0]?.files.map((file) => [file.path, file.change, file.diff.split('\n')[0]])).toEqual([
      ['src/farewell.js', 'added', '@@ -0,0 +1,2 @@'],
    ]);
    expect(result?.blocking.map((comment) => [comment.line, comment.severity])).toEqual([[2, 'high']]);
    expect(reviewOutput(result)).toEqual({
      id: result?.review.id,
      status: 'completed',
      verdict: 'request_changes',
      comments: 2,
      blocking: 1,
    });
    expect(store.events.map((event) => event.type)).toEqual(['review.comment.created', 'review.comment.created', 'review.completed']);
    expect(lines.some((line) => line.includes('1 from the AI of severity high or worse'))).toBe(true);

    const report = withReviewProblems(passing, result?.blocking ?? []);
    expect(report.passed).toBe(false);
    expect(report.problems).toEqual([{ check: 'review', path: 'src/farewell.js', line: 2, message: '[high] Do not eval.' }]);
    expect(report.checks).toContainEqual({ name: 'review', path: 'src/farewell.js', status: 'failed', message: 'AI review comments' });
  });

  it('starts no review once the workflow was cancelled: nothing stored, no event, no AI call', async () => {
    const { store, tasks, run } = setUp(() => answer());
    store.stopWorkflow(tenant, ref.id);
    expect(await run()).toBeNull();
    expect((await store.repository.list(tenant, { page: 1, perPage: 10, sort: 'created_at', order: 'desc' }, {})).total).toBe(0);
    expect(store.events).toEqual([]);
    expect(tasks).toEqual([]);
  });

  it('leaves the report as it is when nothing blocks', async () => {
    const { run } = setUp(() => answer());
    const result = await run();
    expect(result?.blocking).toEqual([]);
    expect(withReviewProblems(passing, [])).toBe(passing);
  });

  it("fails the review but not verify on the AI's unusable answer, and throws a transient failure on for the retry", async () => {
    const broken = setUp(() => new Error('anthropic: the review answer is not valid JSON'));
    const failed = await broken.run();
    expect(failed?.review).toMatchObject({ status: 'failed', error: 'anthropic: the review answer is not valid JSON' });
    expect(failed?.blocking).toEqual([]);
    expect(broken.lines.some((line) => line.includes('failed: anthropic: the review answer is not valid JSON'))).toBe(true);

    const busy = setUp(() => new AiProviderTransientError('anthropic: 529 overloaded'));
    await expect(busy.run()).rejects.toBeInstanceOf(AiProviderTransientError);
    expect(busy.store.events.map((event) => [event.type, event.data.status])).toEqual([['review.completed', 'failed']]);
  });
});
