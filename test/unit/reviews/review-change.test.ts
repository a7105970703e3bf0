import { applyPatch } from 'diff';
import { localProvider } from '../../../functions/adapters/ai/local-provider';
import type { AiProvider } from '../../../functions/core/ai/provider';
import type { AnalysisResults } from '../../../functions/core/reviews/analysis';
import type { ChangedFile } from '../../../functions/core/reviews/change-source';
import type { Review } from '../../../functions/core/reviews/review';
import { reviewChange } from '../../../functions/core/reviews/review-change';
import type { ReviewLimits } from '../../../functions/core/reviews/review-limits';
import { newReview } from '../../../functions/core/reviews/review-use-cases';
import type { RawFinding } from '../../../functions/core/security/scanner';
import type { Tenant } from '../../../functions/core/tenancy';
import { controlledClock, startOfTests } from '../fakes/clock';
import { answer, scriptedReviewProvider } from '../fakes/review-ai-provider';
import { inMemoryReviewRepository } from '../fakes/review-repository';

const tenant: Tenant = { accountId: 'acct_01JD2Q7A0B1C2D3E4F5G6H7J8K', mode: 'test' };
const numbered = (count: number, name: string) => Array.from({ length: count }, (_, i) => `export const ${name}${i + 1} = ${i + 1};`);
const text = (lines: string[]) => `${lines.join('\n')}\n`;

/** Line 5 and line 15 change; line 10 (an old problem) does not. */
const limitsBefore = numbered(20, 'value');
const limitsAfter = [...limitsBefore];
limitsAfter[4] = "export const limit: number = 'ten';";
limitsAfter[14] = 'export const value15 = 15 * 2;';

const change: ChangedFile[] = [
  { path: 'src/limits.ts', previous_path: null, change: 'modified', kind: 'text', before: text(limitsBefore), after: text(limitsAfter) },
  {
    path: 'src/run.js',
    previous_path: null,
    change: 'added',
    kind: 'text',
    before: null,
    after: 'export const ok = 1;\nexport const run = (input) => eval(input);\n',
  },
  {
    path: 'config.js',
    previous_path: null,
    change: 'added',
    kind: 'text',
    before: null,
    after: "export const token = 'sekrit-value-123';\n",
  },
  { path: 'assets/logo.png', previous_path: null, change: 'added', kind: 'binary', before: null, after: null },
  { path: 'package-lock.json', previous_path: null, change: 'modified', kind: 'text', before: '{}\n', after: '{ "lockfileVersion": 3 }\n' },
  { path: 'dist/app.js', previous_path: null, change: 'added', kind: 'text', before: null, after: 'var a=1;\n' },
  { path: 'old/gone.ts', previous_path: null, change: 'deleted', kind: 'text', before: 'export const gone = 1;\n', after: null },
];

const finding = (type: 'sast' | 'secrets', rule: string, path: string, line: number, severity: RawFinding['severity']): RawFinding => ({
  type,
  rule_id: rule,
  severity,
  title: type === 'secrets' ? 'Generic token in source' : 'eval() with a variable',
  description: type === 'secrets' ? 'A token was found. Rotate it.' : 'eval can run code an attacker sends.',
  location: { path, line },
  snippet: `${rule} ${path}`,
  excerpt: null,
  details: {},
});

const analysis: AnalysisResults = {
  checks: {
    passed: false,
    checks: [],
    problems: [
      { check: 'types', path: 'src/limits.ts', line: 5, message: "TS2322: Type 'string' is not assignable to type 'number'." },
      { check: 'types', path: 'src/limits.ts', line: 10, message: "TS2304: Cannot find name 'old'." },
    ],
  },
  findings: [
    finding('sast', 'no-eval', 'src/run.js', 2, 'high'),
    finding('secrets', 'secretlint/generic-token', 'config.js', 1, 'critical'),
    // On a file the change does not touch: none of the review's business.
    finding('sast', 'no-eval', 'src/elsewhere.js', 3, 'high'),
  ],
};

const setUp = (provider: AiProvider, limits: Partial<ReviewLimits> = {}) => {
  const store = inMemoryReviewRepository();
  const clock = controlledClock();
  store.addProject(tenant, 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G');
  const queued = newReview({
    id: 'rev_01JD2QD4J8K0M2N4P6R8S0T2V4',
    project_id: 'proj_01JD2Q8X4B6V3C1N0M9K8J7H6G',
    workflow_id: null,
    base: 'main',
    head: 'feature',
    ai_provider: provider.name,
    instructions: 'Look at limits.',
    now: new Date(startOfTests).toISOString(),
  });
  const running: Review = { ...queued, status: 'running', started_at: queued.created_at, revision: 2 };
  store.put(tenant, running);
  const deps = { reviews: store.repository, clock, aiProvider: async () => provider, limits };
  const run = async (files = change, results = analysis) =>
    (
      await reviewChange(
        deps,
        tenant,
        running,
        { base_ref: 'main', merge_base: 'a'.repeat(40), head_commit: 'b'.repeat(40), files },
        async () => {
          clock.advance(1500);
          return results;
        },
      )
    ).review;
  return { store, clock, running, run };
};

describe('a review with the local provider', () => {
  it('comments the analysis results on added lines with their rule, never an unchanged line, and sends its events in order', async () => {
    const { store, run } = setUp(localProvider());
    const review = await run();
    expect(review).toMatchObject({
      status: 'completed',
      verdict: 'request_changes',
      base_ref: 'main',
      merge_base: 'a'.repeat(40),
      head_commit: 'b'.repeat(40),
      duration_ms: 1500,
      error: null,
    });
    expect(
      store.comments.map(({ path, start_line, line, severity, category, source, rule }) => ({
        path,
        start_line,
        line,
        severity,
        category,
        source,
        rule,
      })),
    ).toEqual([
      {
        path: 'config.js',
        start_line: null,
        line: 1,
        severity: 'critical',
        category: 'security',
        source: 'analysis',
        rule: 'secretlint/generic-token',
      },
      {
        path: 'src/limits.ts',
        start_line: null,
        line: 5,
        severity: 'high',
        category: 'bug',
        source: 'analysis',
        rule: 'typescript/TS2322',
      },
      { path: 'src/run.js', start_line: null, line: 2, severity: 'high', category: 'security', source: 'analysis', rule: 'no-eval' },
    ]);
    expect(store.comments[1]?.body).toContain("TS2322: Type 'string' is not assignable to type 'number'.");
    // The old problem on line 10 is no comment, but it is counted.
    expect(review?.counts).toEqual({
      comments: 3,
      by_severity: { critical: 1, high: 2, medium: 0, low: 0, info: 0 },
      by_source: { analysis: 3, ai: 0 },
      dropped: { outside_diff: 1, duplicate: 0, over_limit: 0 },
      suggestions_dropped: 0,
    });
    // The local provider added nothing; its summary counts what the analysis found.
    expect(review?.summary).toMatch(/found 3 issues on the changed lines \(1 critical, 2 high\)/);
    expect(review?.ai_usage).toMatchObject({ provider: 'local', requests: 1 });

    expect(store.events.map((event) => event.type)).toEqual([
      'review.comment.created',
      'review.comment.created',
      'review.comment.created',
      'review.completed',
    ]);
    expect(store.events[0]?.data).toEqual({ ...store.comments[0] });
    expect(store.events[3]?.data).toEqual({
      review_id: review?.id,
      project_id: review?.project_id,
      workflow_id: null,
      status: 'completed',
      verdict: 'request_changes',
      comments: 3,
      by_severity: { critical: 1, high: 2, medium: 0, low: 0, info: 0 },
      dropped_comments: { outside_diff: 1, duplicate: 0, over_limit: 0 },
      head_commit: 'b'.repeat(40),
      merge_base: 'a'.repeat(40),
      error: null,
      duration_ms: 1500,
    });
    // Comment ids sort in reading order, so the list's creation order is the diff's.
    const ids = store.comments.map((comment) => comment.id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^rvc_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
  });

  it('lists binary and generated files as skipped and the rest as reviewed', async () => {
    const review = await setUp(localProvider()).run();
    expect(review?.files.map(({ path, change, status, reason }) => [path, change, status, reason])).toEqual([
      ['assets/logo.png', 'added', 'skipped', 'binary file'],
      ['config.js', 'added', 'reviewed', null],
      ['dist/app.js', 'added', 'skipped', 'generated: under dist/'],
      ['old/gone.ts', 'deleted', 'reviewed', null],
      ['package-lock.json', 'modified', 'skipped', 'generated: a lockfile'],
      ['src/limits.ts', 'modified', 'reviewed', null],
      ['src/run.js', 'added', 'reviewed', null],
    ]);
    expect(review?.files_total).toBe(7);
    expect(review?.summary).toContain('3 files skipped (binary or generated)');
  });

  it('approves a change the analysis finds nothing in', async () => {
    const { store, run } = setUp(localProvider());
    const review = await run(change.slice(0, 1), { checks: { passed: true, checks: [], problems: [] }, findings: [] });
    expect(review).toMatchObject({ status: 'completed', verdict: 'approve', counts: expect.objectContaining({ comments: 0 }) });
    expect(store.events.map((event) => event.type)).toEqual(['review.completed']);
  });

  it('does not approve a change none of whose files could be analysed (all generated, binary or too large)', async () => {
    const generatedOnly = change.filter((file) => ['dist/app.js', 'package-lock.json', 'assets/logo.png'].includes(file.path));
    expect(generatedOnly).toHaveLength(3);
    const review = await setUp(localProvider()).run(generatedOnly, { checks: { passed: true, checks: [], problems: [] }, findings: [] });
    expect(review).toMatchObject({ status: 'completed', verdict: 'comment' });
    expect(review?.summary).toContain('No file of the change was reviewed or analysed');
  });
});

describe("the AI provider's answer", () => {
  it('keeps comments on lines the diff shows and drops (and counts) every other', async () => {
    const { provider } = scriptedReviewProvider(() =>
      answer({
        verdict: 'comment',
        comments: [
          // Context line 4 of the hunk around line 5: shown, kept.
          {
            path: 'src/limits.ts',
            start_line: null,
            line: 4,
            severity: 'low',
            category: 'style',
            body: 'Name this better.',
            suggestion: null,
          },
          // A range inside one hunk.
          {
            path: 'src/limits.ts',
            start_line: 14,
            line: 16,
            severity: 'medium',
            category: 'bug',
            body: 'Doubling here is wrong.',
            suggestion: null,
          },
          // Line 10 lies between the two hunks: not in the diff.
          { path: 'src/limits.ts', start_line: null, line: 10, severity: 'high', category: 'bug', body: 'Invented.', suggestion: null },
          // Across the two hunks.
          { path: 'src/limits.ts', start_line: 5, line: 15, severity: 'high', category: 'bug', body: 'Too wide.', suggestion: null },
          // A file outside the change, a deleted file, a line past the end.
          { path: 'src/other.ts', start_line: null, line: 1, severity: 'high', category: 'bug', body: 'Elsewhere.', suggestion: null },
          { path: 'old/gone.ts', start_line: null, line: 1, severity: 'low', category: 'test', body: 'Deleted.', suggestion: null },
          { path: 'src/run.js', start_line: null, line: 3, severity: 'low', category: 'style', body: 'Past the end.', suggestion: null },
        ],
      }),
    );
    const { store, run } = setUp(provider);
    const review = await run();
    const ai = store.comments.filter((comment) => comment.source === 'ai');
    expect(ai.map(({ path, start_line, line, rule }) => [path, start_line, line, rule])).toEqual([
      ['src/limits.ts', null, 4, null],
      ['src/limits.ts', 14, 16, null],
    ]);
    expect(review?.counts?.dropped).toEqual({ outside_diff: 6, duplicate: 0, over_limit: 0 });
    expect(review?.counts?.by_source).toEqual({ analysis: 3, ai: 2 });
    expect(review?.verdict).toBe('request_changes');
  });

  it('keeps a suggestion as a patch that applies cleanly, and drops one that changes nothing', async () => {
    const { provider } = scriptedReviewProvider(() =>
      answer({
        comments: [
          {
            path: 'src/limits.ts',
            start_line: null,
            line: 5,
            severity: 'high',
            category: 'bug',
            body: 'A number, not a string.',
            suggestion: 'export const limit: number = 10;',
          },
          {
            path: 'src/limits.ts',
            start_line: 15,
            line: 16,
            severity: 'low',
            category: 'style',
            body: 'Same text as now.',
            suggestion: 'export const value15 = 15 * 2;\nexport const value16 = 16;',
          },
        ],
      }),
    );
    const { store, run } = setUp(provider);
    const review = await run();
    const [fix, noop] = store.comments.filter((comment) => comment.source === 'ai');
    expect(fix?.suggestion?.replacement).toBe('export const limit: number = 10;');
    const patched = applyPatch(text(limitsAfter), fix?.suggestion?.patch ?? '');
    expect(patched).toBe(text(limitsAfter).replace("export const limit: number = 'ten';", 'export const limit: number = 10;'));
    expect(fix?.suggestion?.patch).toMatch(/^diff --git a\/src\/limits.ts b\/src\/limits.ts\n/);
    expect(noop?.suggestion).toBeNull();
    expect(review?.counts?.suggestions_dropped).toBe(1);
  });

  it('never sends a line the secrets scanner flagged, and keeps no suggestion whose patch would show it', async () => {
    const { provider, tasks } = scriptedReviewProvider(() =>
      answer({
        comments: [
          {
            path: 'config.js',
            start_line: null,
            line: 1,
            severity: 'high',
            category: 'security',
            body: 'Read it from the environment.',
            suggestion: 'export const token = process.env.TOKEN;',
          },
        ],
      }),
    );
    const { store, run } = setUp(provider);
    await run();
    expect(JSON.stringify(tasks)).not.toContain('sekrit-value-123');
    expect(JSON.stringify(tasks)).toContain('[line 1 withheld: the secrets scanner flagged it]');
    expect(JSON.stringify(store.comments)).not.toContain('sekrit-value-123');
    expect(JSON.stringify(store.events)).not.toContain('sekrit-value-123');
    expect(store.comments.find((comment) => comment.source === 'ai')?.suggestion).toBeNull();
  });

  it('withholds every line of a private key block, not only the line the scanner names', async () => {
    const { provider, tasks } = scriptedReviewProvider(() => answer());
    const { run } = setUp(provider);
    const key: ChangedFile = {
      path: 'keys.js',
      previous_path: null,
      change: 'added',
      kind: 'text',
      before: null,
      after: text([
        'export const key = `',
        '-----BEGIN RSA PRIVATE KEY-----',
        'MIIEowIBAAKCAQEAbodylineone',
        'bodylinetwoQWERTYUIOP',
        '-----END RSA PRIVATE KEY-----',
        '`;',
        'export const after = 1;',
      ]),
    };
    await run([key], {
      checks: { passed: true, checks: [], problems: [] },
      findings: [finding('secrets', 'secretlint/private-key', 'keys.js', 2, 'critical')],
    });
    const sent = JSON.stringify(tasks);
    for (const withheld of ['bodylineone', 'bodylinetwo', 'BEGIN RSA', 'END RSA']) expect(sent).not.toContain(withheld);
    expect(sent).toContain('export const after = 1;');
  });

  it('gives the AI the analysis results, the instructions and the numbered diff with the surrounding code', async () => {
    const { provider, tasks } = scriptedReviewProvider(() => answer());
    await setUp(provider).run();
    const [task] = tasks;
    expect(task).toMatchObject({ kind: 'review', instructions: 'Look at limits.', part: { index: 1, of: 1 } });
    expect(task?.analysis.map((item) => [item.path, item.line, item.rule])).toEqual([
      ['config.js', 1, 'secretlint/generic-token'],
      ['src/limits.ts', 5, 'typescript/TS2322'],
      ['src/run.js', 2, 'no-eval'],
    ]);
    const limits = task?.files.find((file) => file.path === 'src/limits.ts');
    expect(limits?.diff).toContain("     5 +export const limit: number = 'ten';");
    // Twenty lines around each hunk: here the whole (small) file.
    expect(limits?.surrounding?.split('\n')).toHaveLength(20);
    expect(task?.files.map((file) => file.path)).toEqual(['config.js', 'old/gone.ts', 'src/limits.ts', 'src/run.js']);
  });

  it('keeps each place and text once and drops the least severe past the cap, counting both', async () => {
    const { provider } = scriptedReviewProvider(() =>
      answer({
        comments: [
          { path: 'src/run.js', start_line: null, line: 1, severity: 'info', category: 'style', body: 'A note.', suggestion: null },
          { path: 'src/run.js', start_line: null, line: 1, severity: 'info', category: 'style', body: 'A  note.', suggestion: null },
          { path: 'src/run.js', start_line: null, line: 2, severity: 'low', category: 'style', body: 'Another note.', suggestion: null },
        ],
      }),
    );
    const { store, run } = setUp(provider, { maxComments: 4 });
    const review = await run();
    expect(review?.counts?.dropped).toEqual({ outside_diff: 1, duplicate: 1, over_limit: 1 });
    expect(store.comments.map((comment) => comment.severity)).toEqual(['critical', 'high', 'high', 'low']);
  });
});

describe('a finding the analysis reports twice at one place', () => {
  const twice: AnalysisResults = { ...analysis, findings: [...analysis.findings, finding('sast', 'no-eval', 'src/run.js', 2, 'high')] };

  it('is one comment, sent to the provider once, so its summary counts what the review shows', async () => {
    const { provider, tasks } = scriptedReviewProvider(() => answer());
    const { store, run } = setUp(provider);
    const review = await run(change, twice);
    expect(tasks[0]?.analysis.filter((item) => item.path === 'src/run.js')).toHaveLength(1);
    expect(store.comments.filter((comment) => comment.path === 'src/run.js')).toHaveLength(1);
    expect(review?.counts?.dropped.duplicate).toBe(1);
  });

  it("is counted once in the local provider's summary", async () => {
    const { store, run } = setUp(localProvider());
    const review = await run(change, twice);
    expect(store.comments).toHaveLength(3);
    expect(review?.summary).toContain('The analysis found 3 issues on the changed lines');
  });
});

describe('a large change', () => {
  const many = (count: number): ChangedFile[] =>
    Array.from({ length: count }, (_, i) => ({
      path: `src/file${String(i).padStart(2, '0')}.ts`,
      previous_path: null,
      change: 'added' as const,
      kind: 'text' as const,
      before: null,
      after: text(numbered(30, `f${i}_`)),
    }));
  const none: AnalysisResults = { checks: { passed: true, checks: [], problems: [] }, findings: [] };

  it('is split by file into requests that each fit the budget, one summary per part', async () => {
    const { provider, tasks } = scriptedReviewProvider((task) => answer({ summary: `Part with ${task.files.length} files.` }));
    const { run } = setUp(provider, { requestCharacters: 10_500 });
    const review = await run(many(6), none);
    expect(tasks.length).toBeGreaterThan(1);
    expect(tasks.flatMap((task) => task.files.map((file) => file.path))).toEqual(many(6).map((file) => file.path));
    expect(tasks.map((task) => task.part)).toEqual(tasks.map((_, i) => ({ index: i + 1, of: tasks.length })));
    for (const task of tasks) expect(JSON.stringify(task).length).toBeLessThan(10_500);
    expect(review?.summary).toMatch(/^Part 1 of \d: Part with \d files\./);
    expect(review?.ai_usage).toMatchObject({ requests: tasks.length, input_tokens: 1000 * tasks.length });
    expect(review?.files.every((file) => file.status === 'reviewed')).toBe(true);
  });

  it('lists a file whose diff alone is too large, and the files past the cap, as not reviewed', async () => {
    const { provider, tasks } = scriptedReviewProvider(() => answer());
    const huge: ChangedFile = { ...many(1)[0]!, path: 'src/a-huge.ts', after: text(numbered(600, 'h')) };
    const { run } = setUp(provider, { requestCharacters: 12_000, maxFiles: 3 });
    const review = await run([huge, ...many(4)], none);
    const status = Object.fromEntries(review!.files.map((file) => [file.path, [file.status, file.reason]]));
    expect(status['src/a-huge.ts']).toEqual([
      'not_reviewed',
      expect.stringMatching(/more than one AI request holds \(12000\); only the analysis ran/),
    ]);
    expect(status['src/file00.ts']).toEqual(['reviewed', null]);
    expect(status['src/file01.ts']).toEqual(['reviewed', null]);
    expect(status['src/file02.ts']).toEqual(['not_reviewed', 'past the cap of 3 files per review']);
    expect(status['src/file03.ts']).toEqual(['not_reviewed', 'past the cap of 3 files per review']);
    expect(tasks.flatMap((task) => task.files.map((file) => file.path))).toEqual(['src/file00.ts', 'src/file01.ts']);
    expect(review?.summary).toContain('3 files not reviewed (past a limit; see files)');
  });

  it('lists files on the record within a byte budget as well as a count (long paths), counting them all', async () => {
    const { provider } = scriptedReviewProvider(() => answer());
    const { run } = setUp(provider, { maxFiles: 3, maxListedFilesBytes: 2_000 });
    const longPaths = many(20).map((file, i) => ({ ...file, path: `${'d'.repeat(200)}/f${String(i).padStart(2, '0')}.ts` }));
    const review = await run(longPaths, none);
    expect(review?.files_total).toBe(20);
    expect(review!.files.length).toBeGreaterThan(0);
    expect(review!.files.length).toBeLessThan(20);
    expect(Buffer.byteLength(JSON.stringify(review!.files))).toBeLessThanOrEqual(2_000);
  });

  it('lists an edited file changing more lines than a diff is worth as not reviewed, with counts, and sends it to nobody', async () => {
    const { provider, tasks } = scriptedReviewProvider(() => answer());
    const { run } = setUp(provider);
    const lines = (prefix: string) => `${Array.from({ length: 3000 }, (_, i) => `const ${prefix}${i} = ${i};`).join('\n')}\n`;
    const rewritten: ChangedFile = { ...many(1)[0]!, path: 'src/rewritten.ts', change: 'modified', before: lines('a'), after: lines('b') };
    const review = await run([rewritten], none);
    expect(review!.files).toEqual([
      expect.objectContaining({
        path: 'src/rewritten.ts',
        status: 'not_reviewed',
        reason: 'its diff changes more than 2000 lines',
        additions: 3000,
        deletions: 3000,
      }),
    ]);
    expect(tasks).toHaveLength(0);
  });
});

describe('a review that cannot go on', () => {
  it('stops adding comments once the review is no longer running (failed meanwhile)', async () => {
    const { store, run, running } = setUp(localProvider());
    const failing = store.repository.addComment.bind(store.repository);
    let added = 0;
    store.repository.addComment = async (t, comment, event) => {
      added += 1;
      if (added === 2) store.put(t, { ...running, status: 'failed', revision: 3 });
      return failing(t, comment, event);
    };
    const review = await run();
    expect(review?.status).toBe('failed');
    expect(store.comments).toHaveLength(1);
    expect(store.events.map((event) => event.type)).toEqual(['review.comment.created']);
  });
});
