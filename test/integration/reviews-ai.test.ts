import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer, type FakeModelServer } from '../unit/ai/fake-model-server';
import { clientFor, startChildRuntime, type ChildRuntime } from './support/child-runtime';
import { eventually } from './support/receiver';
import { fixtureRepository, gitOutput } from './support/workflows';

/**
 * A review by a real provider's client (OpenAI's SDK) against a model API on 127.0.0.1 that
 * answers what the test scripts: the service checks every comment of the answer against the diff.
 */

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `export const value${i + 1} = ${i + 1};`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

const answer = {
  summary: 'One real problem, and two remarks the diff does not show.',
  verdict: 'comment',
  comments: [
    {
      path: 'src/limits.ts',
      start_line: null,
      line: 3,
      severity: 'medium',
      category: 'bug',
      body: 'value3 should stay 3.',
      suggestion: 'export const value3 = 3;',
    },
    // Line 10 is not in the diff (its hunk ends at line 6), README.md not in the change at all.
    { path: 'src/limits.ts', start_line: null, line: 10, severity: 'high', category: 'bug', body: 'Invented.', suggestion: null },
    { path: 'README.md', start_line: null, line: 1, severity: 'low', category: 'style', body: 'Not changed.', suggestion: null },
  ],
};

const completion = (content: string) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 },
  },
});

describe('a code review by an AI provider', () => {
  let model: FakeModelServer | undefined;
  let runtime: ChildRuntime | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await runtime?.stop();
    await model?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps the answer's comments on lines the diff shows, with a suggestion that applies, and drops and counts the others", async () => {
    model = await startFakeModelServer(() => completion(JSON.stringify(answer)));
    dataDir = await mkdtemp(join(tmpdir(), 'pas-review-ai-'));
    runtime = await startChildRuntime(dataDir, {
      AI_PROVIDERS: 'local,openai',
      OPENAI_API_KEY: 'sk-test-0123456789abcdef',
      OPENAI_BASE_URL: `${model.url}/v1`,
    });
    const key = /test key: (svc_test_\S+)/.exec(runtime.output())?.[1];
    expect(key).toBeDefined();
    const api = clientFor(runtime.apiUrl, key!);

    const repository = await fixtureRepository({ 'README.md': '# Limits\n', 'src/limits.ts': text(numbered(12)) });
    gitOutput(repository.dir, 'checkout', '-q', '-b', 'feature');
    const changed = numbered(12);
    changed[2] = 'export const value3 = 30;';
    await writeFile(join(repository.dir, 'src/limits.ts'), text(changed));
    gitOutput(repository.dir, 'commit', '-q', '-am', 'Raise value3');
    // The repository's default branch (its HEAD) is main again: the review's base.
    gitOutput(repository.dir, 'checkout', '-q', 'main');
    const project = (await api.post('/projects', { name: 'Limits', repository: repository.url })).body.data;

    const created = await api.post('/reviews', { project_id: project.id, head: 'feature', ai_provider: 'openai' });
    expect([created.status, created.body.data.ai_provider]).toEqual([201, 'openai']);
    const review = await eventually(
      async () => {
        const data = (await api.get(`/reviews/${created.body.data.id}`)).body.data;
        return ['completed', 'failed'].includes(data.status) ? data : undefined;
      },
      90_000,
      () => `review ${created.body.data.id} did not finish`,
      200,
    );
    expect(review).toMatchObject({
      status: 'completed',
      verdict: 'comment',
      ai_usage: { provider: 'openai', model: 'gpt-4o-mini-2024-07-18', requests: 1, input_tokens: 900, output_tokens: 120 },
      counts: { comments: 1, by_source: { analysis: 0, ai: 1 }, dropped: { outside_diff: 2, duplicate: 0, over_limit: 0 } },
    });
    expect(review.summary).toContain('One real problem');

    // The model saw the diff with head-side line numbers, and the instructions on how to answer.
    expect(model.requests).toHaveLength(1);
    const prompt = JSON.stringify(model.requests[0]!.body);
    expect(prompt).toContain('src/limits.ts');
    expect(prompt).toContain('value3 = 30');

    const comments = (await api.get(`/reviews/${review.id}/comments`)).body.data;
    expect(comments).toHaveLength(1);
    const [comment] = comments;
    expect(comment).toMatchObject({ path: 'src/limits.ts', start_line: null, line: 3, source: 'ai', severity: 'medium', rule: null });
    expect(comment.suggestion.replacement).toBe('export const value3 = 3;');
    // The suggested patch applies to the head with git itself, and gives back main's line.
    gitOutput(repository.dir, 'checkout', '-q', 'feature');
    await writeFile(join(repository.dir, 'suggestion.patch'), comment.suggestion.patch);
    execFileSync('git', ['apply', 'suggestion.patch'], { cwd: repository.dir });
    expect(gitOutput(repository.dir, 'diff', 'main', '--', 'src/limits.ts')).toBe('');
    // A runtime of its own (DynamoDB Local's start included) and a review: minutes on a busy machine.
  }, 240_000);
});
