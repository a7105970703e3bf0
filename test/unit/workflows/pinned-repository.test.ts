import type { Project } from '../../../functions/core/projects/project';
import { runBuild } from '../../../functions/core/workflows/stages/build';
import { runIntake } from '../../../functions/core/workflows/stages/intake';
import { artifactKeys } from '../../../functions/core/workflows/stages/artifact-keys';
import { runPackage } from '../../../functions/core/workflows/stages/package';
import type { CheckoutRequest, PushRequest } from '../../../functions/core/workflows/stages/stage-deps';
import { runVerify, type VerifyDeps } from '../../../functions/core/workflows/stages/verify';
import { newWorkflow, tenantOf, type Workflow, type WorkflowRef } from '../../../functions/core/workflows/workflow';
import { sha256Hex, toBuffer, type ArtifactStore } from '../../../functions/core/workspace/artifact-store';
import { localProvider } from '../../../functions/adapters/ai/local-provider';
import { workingTreeAt } from '../../../functions/adapters/workspace/working-tree';
import { controlledClock } from '../fakes/clock';
import { inMemoryProjectRepository } from '../fakes/project-repository';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';
import { tempDirs, writeTree } from '../workspace/temp-dir';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const ref: WorkflowRef = { account_id: 'acct_PIN', mode: 'test', id: 'wf_01PINNED' };
const tenant = tenantOf(ref);
const original = 'file:///repos/original';
const moved = 'file:///repos/moved';
/** Each repository's tip: a checkout answers the commit of the repository it was asked for. */
const tips: Record<string, string> = { [original]: 'a'.repeat(40), [moved]: 'b'.repeat(40) };
const fence = '```';
const prompt = `Add a farewell helper\n\n${fence}js src/farewell.js\nexport const farewell = (name) => name;\n${fence}\n`;

const memoryArtifacts = (): ArtifactStore => {
  const stored = new Map<string, Buffer>();
  return {
    async put(key, body) {
      const bytes = toBuffer(body);
      stored.set(key, bytes);
      return { location: `memory://${key}`, sha256: sha256Hex(bytes), size: bytes.length };
    },
    get: async (key) => stored.get(key) ?? null,
  };
};

const setUp = async () => {
  const clock = controlledClock();
  const workflows = inMemoryWorkflowRepository();
  const projects = inMemoryProjectRepository();
  const now = new Date(clock.now()).toISOString();
  const project: Project = { id: 'proj_PIN', name: 'Greeter', repository: original, description: '', created_at: now, updated_at: now };
  await projects.create(tenant, project);
  const created = newWorkflow({
    id: ref.id,
    project_id: project.id,
    name: 'Farewell',
    prompt,
    config: { ai_provider: 'local', auto_deploy: false, branch: null, max_iterations: 1, review: false },
    now,
  });
  workflows.put(tenant, { ...created, status: 'running', started_at: now });

  const checkouts: CheckoutRequest[] = [];
  const pushes: PushRequest[] = [];
  const deps: VerifyDeps = {
    workflows,
    projects,
    clock,
    aiProvider: async () => localProvider(),
    repository: {
      async checkout(request) {
        checkouts.push(request);
        const tip = tips[request.url];
        if (!tip) throw new Error(`no repository at ${request.url}`);
        if (request.commit && request.commit !== tip) throw new Error(`commit ${request.commit} was not found in the repository`);
        await writeTree(request.dir, { 'package.json': '{"type":"module"}\n', 'src/index.js': 'export const greet = 1;\n' });
        return { commit: tip, branch: 'main' };
      },
      async pushBranch(request) {
        pushes.push(request);
        return { branch: request.branch, commit: 'c'.repeat(40) };
      },
    },
    scratch: { create: async () => workingTreeAt(await dirs.make('pinned-'), async () => {}) },
    artifacts: memoryArtifacts(),
    signer: async () => {
      throw new Error('these stages sign nothing');
    },
    checkFiles: async () => ({ passed: true, checks: [], problems: [] }),
  };
  /** What a `PATCH /v1/projects/{id}` of `repository` does to the project record. */
  const moveProject = async () => {
    await projects.update(tenant, project.id, { repository: moved }, new Date(clock.now()).toISOString());
  };
  const stored = (): Workflow => workflows.stored(tenant, ref.id)!;
  return { deps, workflows, checkouts, pushes, moveProject, stored };
};

describe('a workflow keeps the repository intake checked out', () => {
  it('intake records the repository with the commit and branch it checked out', async () => {
    const { deps, checkouts, stored } = await setUp();
    await runIntake(deps, ref);
    expect(checkouts.map((checkout) => checkout.url)).toEqual([original]);
    expect(stored().outputs).toMatchObject({ repository: original, commit: tips[original], branch: 'main' });
  });

  it("later stages check out the recorded repository at intake's commit after the project's repository changed", async () => {
    const { deps, checkouts, pushes, moveProject, stored } = await setUp();
    await runIntake(deps, ref);
    await moveProject();

    await runBuild(deps, ref);
    await runVerify(deps, ref);
    // Prove signs what the earlier stages stored and checks nothing out; package reads its envelope.
    await deps.artifacts.put(artifactKeys.provenance(ref), '{}', 'application/json');
    await runPackage(deps, ref);

    expect(stored().stage_statuses).toMatchObject({ intake: 'completed', build: 'completed', verify: 'completed', package: 'completed' });
    expect(checkouts.map((checkout) => [checkout.url, checkout.commit])).toEqual([
      [original, undefined],
      [original, tips[original]],
      [original, tips[original]],
    ]);
    expect(pushes.map((push) => [push.url, push.baseCommit])).toEqual([[original, tips[original]]]);
    expect(stored().outputs.repository).toBe(original);
  });

  it("a workflow stored before the repository was recorded goes on with the project's, as it did", async () => {
    const { deps, workflows, checkouts, moveProject } = await setUp();
    await runIntake(deps, ref);
    const { repository: _recorded, ...withoutRepository } = workflows.stored(tenant, ref.id)!.outputs;
    workflows.put(tenant, { ...workflows.stored(tenant, ref.id)!, outputs: withoutRepository as Workflow['outputs'] });
    await moveProject();

    // Its stages read the project's current repository, where intake's commit is not.
    await expect(runBuild(deps, ref)).rejects.toThrow(`commit ${tips[original]} was not found in the repository`);
    expect(checkouts.at(-1)?.url).toBe(moved);
  });
});
