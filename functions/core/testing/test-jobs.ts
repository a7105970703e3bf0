import type { AiProvider } from '../ai/provider';
import { type Clock, isoTime } from '../clock';
import type { Project } from '../projects/project';
import type { Tenant } from '../tenancy';
import type { RepositoryAccess } from '../workflows/stages/stage-deps';
import { changeOptimistically } from '../optimistic-update';
import type { Scratch, WorkingTree } from '../workspace/working-tree';
import type { Framework, TestRunner } from './results';
import type { SourceInspector } from './source-inspector';
import { runSnapshot, suiteSnapshot } from './snapshots';
import type { TestJobRef, TestRepository, TestRun, TestSuite } from './test-records';

export interface TestJobDeps {
  tests: TestRepository;
  projects: { get(tenant: Tenant, id: string): Promise<Project | undefined> };
  clock: Clock;
  repository: RepositoryAccess;
  scratch: Scratch;
  aiProvider(name: string): Promise<AiProvider>;
  /** Finds the framework and the sources in a checked-out tree. */
  inspector: SourceInspector;
  /** Runs tests in isolation: a child process locally, CodeBuild in AWS. */
  runner: TestRunner;
}

const tenantOf = (ref: TestJobRef): Tenant => ({ accountId: ref.account_id, mode: ref.mode });
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const change = async <T extends { revision: number; updated_at: string }>(
  read: () => Promise<T | undefined>,
  save: (previous: T, next: T) => Promise<boolean>,
  clock: Clock,
  update: (current: T, nowIso: string) => T | null,
): Promise<T | undefined> =>
  changeOptimistically(
    'the record',
    read,
    (current) => {
      const nowIso = isoTime(clock.now());
      const next = update(current, nowIso);
      return next && { ...next, updated_at: nowIso, revision: current.revision + 1 };
    },
    async (current, next) => ((await save(current, next)) ? next : null),
  );

const moduleTypeOf = async (tree: WorkingTree): Promise<'module' | 'commonjs'> => {
  try {
    const manifest = JSON.parse((await tree.readText('package.json')) ?? '') as { type?: unknown };
    return manifest.type === 'module' ? 'module' : 'commonjs';
  } catch {
    return 'commonjs';
  }
};

/**
 * Generates a suite: the branch checked out, the framework detected unless given, the AI asked for
 * tests of the sources. Its end, completed or failed, is told by `test.generation.completed`.
 */
export const runGeneration = async (deps: TestJobDeps, ref: TestJobRef): Promise<TestSuite | undefined> => {
  const tenant = tenantOf(ref);
  const suiteChange = (update: (suite: TestSuite, nowIso: string) => TestSuite | null) =>
    change(
      () => deps.tests.getSuite(tenant, ref.id),
      (previous, next) =>
        deps.tests.saveSuite(
          tenant,
          previous,
          next,
          next.status === 'running' ? [] : [{ type: 'test.generation.completed', data: suiteSnapshot(next) }],
        ),
      deps.clock,
      update,
    );
  // Claimed only if this invocation moved it from queued: a second delivery of the job does nothing.
  let claimed = false;
  const started = await suiteChange((suite, nowIso): TestSuite | null => {
    claimed = suite.status === 'queued';
    return claimed ? { ...suite, status: 'running', started_at: nowIso } : null;
  });
  if (!started || !claimed) return started;
  try {
    const project = await deps.projects.get(tenant, started.project_id);
    if (!project) throw new Error(`project ${started.project_id} no longer exists`);
    const tree = await deps.scratch.create();
    try {
      const checkedOut = await deps.repository.checkout({ url: project.repository, branch: started.branch ?? undefined, dir: tree.dir });
      const detected = started.framework ? null : await deps.inspector.frameworkOf(tree.dir);
      const framework: Framework | null = started.framework ?? detected;
      if (!framework) throw new Error('no test framework was detected in the repository; name one (jest, vitest, node:test, pytest)');
      const sources = await deps.inspector.sourcesOf(tree.dir, { paths: started.paths ?? undefined, framework });
      if (sources.files.length === 0) throw new Error('no source files to write tests for');
      const provider = await deps.aiProvider(started.ai_provider);
      const answer = await provider.run({
        kind: 'tests',
        framework,
        instructions: started.instructions,
        sources: sources.files,
        moduleType: await moduleTypeOf(tree),
      });
      if (answer.output.files.length === 0) throw new Error(`${provider.name} wrote no test file`);
      return await suiteChange((suite, nowIso) =>
        suite.status !== 'running'
          ? null
          : {
              ...suite,
              status: 'completed',
              branch_used: checkedOut.branch,
              commit: checkedOut.commit,
              repository: project.repository,
              framework,
              framework_detected: detected !== null,
              summary: answer.output.summary,
              files: answer.output.files,
              ai_usage: { ...answer.usage, provider: answer.provider, model: answer.model },
              completed_at: nowIso,
            },
      );
    } finally {
      await tree.dispose();
    }
  } catch (error) {
    return suiteChange((suite, nowIso) =>
      suite.status === 'running' ? { ...suite, status: 'failed', error: message(error), completed_at: nowIso } : null,
    );
  }
};

/**
 * Runs a suite (its files written into the tree it was generated from: the same repository and
 * commit) or the repository's own tests, in isolation, and records the results the framework's
 * reporter gave (`test.run.completed`).
 */
export const runTestRun = async (deps: TestJobDeps, ref: TestJobRef): Promise<TestRun | undefined> => {
  const tenant = tenantOf(ref);
  const finish = (update: (run: TestRun, nowIso: string) => TestRun) =>
    change(
      () => deps.tests.getRun(tenant, ref.id),
      (previous, next) => deps.tests.saveRun(tenant, previous, next, [{ type: 'test.run.completed', data: runSnapshot(next) }]),
      deps.clock,
      (run, nowIso) => (run.status === 'running' ? { ...update(run, nowIso), completed_at: nowIso } : null),
    );
  let claimed = false;
  const started = await change(
    () => deps.tests.getRun(tenant, ref.id),
    (previous, next) => deps.tests.saveRun(tenant, previous, next, []),
    deps.clock,
    (run, nowIso): TestRun | null => {
      claimed = run.status === 'queued';
      return claimed ? { ...run, status: 'running', started_at: nowIso } : null;
    },
  );
  if (!started || !claimed) return started;
  try {
    const suite = started.suite_id ? await deps.tests.getSuite(tenant, started.suite_id) : undefined;
    const project = await deps.projects.get(tenant, started.project_id);
    if (!project) throw new Error(`project ${started.project_id} no longer exists`);
    const tree = await deps.scratch.create();
    try {
      const checkedOut = await deps.repository.checkout({
        // A suite's commit is in the repository it was generated from, which the project may no longer name.
        url: suite?.repository ?? project.repository,
        branch: suite?.branch_used ?? started.branch ?? undefined,
        commit: suite?.commit ?? undefined,
        dir: tree.dir,
      });
      if (suite) await tree.apply(suite.files.map((file) => ({ path: file.path, content: file.content })));
      const framework = suite?.framework ?? started.framework ?? (await deps.inspector.frameworkOf(tree.dir));
      if (!framework) throw new Error('no test framework was detected in the repository');
      const results = await deps.runner.run({
        dir: tree.dir,
        framework,
        timeoutSeconds: started.timeout_seconds,
        files: suite?.files.map((file) => file.path),
      });
      const { status, reason, ...recorded } = results;
      return await finish((run) => ({
        ...run,
        status: status === 'completed' ? 'completed' : 'failed',
        error: status === 'completed' ? null : reason,
        branch: checkedOut.branch,
        commit: checkedOut.commit,
        framework,
        results: recorded,
      }));
    } finally {
      await tree.dispose();
    }
  } catch (error) {
    return finish((run) => ({ ...run, status: 'failed', error: message(error) }));
  }
};
