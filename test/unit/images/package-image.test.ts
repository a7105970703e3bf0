import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeSet, RepositoryContext } from '../../../functions/core/workflows/stage-data';
import { artifactKeys } from '../../../functions/core/workflows/stages/artifact-keys';
import type { ImageBuilder, ImageBuildOutcome, ImageBuildRequest } from '../../../functions/core/workflows/stages/image-build';
import { runPackage } from '../../../functions/core/workflows/stages/package';
import type { CheckoutRequest, StageDeps } from '../../../functions/core/workflows/stages/stage-deps';
import { newWorkflow, tenantOf, type Workflow, type WorkflowRef } from '../../../functions/core/workflows/workflow';
import { sha256Hex, toBuffer, type ArtifactStore } from '../../../functions/core/workspace/artifact-store';
import { workingTreeAt } from '../../../functions/adapters/workspace/working-tree';
import { controlledClock } from '../fakes/clock';
import { inMemoryWorkflowRepository } from '../fakes/workflow-repository';
import { tempDirs, writeTree } from '../workspace/temp-dir';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const ref: WorkflowRef = { account_id: 'acc_1', mode: 'test', id: 'wf_01PKG' };
const tenant = tenantOf(ref);
const commit = 'a'.repeat(40);
const image = '123456789012.dkr.ecr.eu-west-1.amazonaws.com/images:wf_01PKG';

const memoryArtifacts = (): ArtifactStore & { keys(): string[] } => {
  const stored = new Map<string, Buffer>();
  return {
    async put(key, body) {
      const bytes = toBuffer(body);
      stored.set(key, bytes);
      return { location: `memory://${key}`, sha256: sha256Hex(bytes), size: bytes.length };
    },
    async get(key) {
      return stored.get(key) ?? null;
    },
    keys: () => [...stored.keys()],
  };
};

/** What the builder saw: its request and the tree's files at that moment. */
interface SeenBuild {
  request: ImageBuildRequest;
  dockerfile: string;
  changed: string | null;
}

const recordingBuilder = (outcome: ImageBuildOutcome) => {
  const seen: SeenBuild[] = [];
  const builder: ImageBuilder = {
    async build(request) {
      seen.push({
        request,
        dockerfile: await readFile(join(request.tree, 'Dockerfile'), 'utf8'),
        changed: await readFile(join(request.tree, 'src/app.js'), 'utf8').catch(() => null),
      });
      await request.log('building');
      return outcome;
    },
  };
  return { builder, seen };
};

interface Setup {
  /** Files of the repository at the intake commit. */
  tree: Record<string, string>;
  changes: ChangeSet['files'];
  /** Paths intake listed; the tree's unless told. */
  listed?: string[];
  truncated?: boolean;
  imageBuilder?: ImageBuilder;
}

const setUp = async ({ tree, changes, listed, truncated = false, imageBuilder }: Setup) => {
  const workflows = inMemoryWorkflowRepository();
  const clock = controlledClock();
  const created = newWorkflow({
    id: ref.id,
    project_id: 'prj_1',
    name: 'Change',
    prompt: 'Change the app',
    config: { ai_provider: 'local', auto_deploy: false, branch: null, max_iterations: 1 },
    now: new Date(clock.now()).toISOString(),
  });
  const workflow: Workflow = {
    ...created,
    status: 'running',
    started_at: created.created_at,
    outputs: { ...created.outputs, commit, branch: 'main' },
  };
  workflows.put(tenant, workflow);

  const artifacts = memoryArtifacts();
  const context: RepositoryContext = {
    repository: 'https://example.com/repo.git',
    branch: 'main',
    commit,
    files: (listed ?? Object.keys(tree)).map((path) => ({ path, size: 1 })),
    filesTruncated: truncated,
    manifests: {},
    readme: null,
    languages: [],
  };
  await artifacts.put(artifactKeys.context(ref), JSON.stringify(context), 'application/json');
  await artifacts.put(
    artifactKeys.changes(ref),
    JSON.stringify({ summary: 'Change the app', files: changes } satisfies ChangeSet),
    'application/json',
  );
  await artifacts.put(artifactKeys.patch(ref), '--- a/src/app.js\n+++ b/src/app.js\n', 'text/x-diff');
  await artifacts.put(artifactKeys.provenance(ref), '{}', 'application/json');

  const checkouts: CheckoutRequest[] = [];
  const deps: StageDeps = {
    workflows,
    projects: {
      get: async (_tenant, id) => ({
        id,
        name: 'Repo',
        repository: context.repository,
        description: '',
        created_at: created.created_at,
        updated_at: created.created_at,
      }),
    },
    clock,
    aiProvider: async () => {
      throw new Error('package asks no AI');
    },
    repository: {
      async checkout(request) {
        checkouts.push(request);
        await writeTree(request.dir, tree);
        return { commit, branch: 'main' };
      },
    },
    scratch: {
      async create() {
        return workingTreeAt(await dirs.make('package-'), async () => {});
      },
    },
    artifacts,
    signer: async () => {
      throw new Error('package signs nothing');
    },
    ...(imageBuilder ? { imageBuilder } : {}),
  };
  const stored = () => workflows.stored(tenant, ref.id)!;
  const logs = () => workflows.logsOf(tenant, ref.id);
  return { deps, checkouts, stored, logs };
};

const withDockerfile = { Dockerfile: 'FROM node:22\nCOPY . /app\n', 'src/app.js': 'old\n' };
const changeApp = [{ path: 'src/app.js', content: 'new\n' }];

describe('package: container image', () => {
  it('builds the image of the tree at the intake commit with the change set, and names it in docker_image', async () => {
    const { builder, seen } = recordingBuilder({ image });
    const { deps, checkouts, stored, logs } = await setUp({ tree: withDockerfile, changes: changeApp, imageBuilder: builder });

    await runPackage(deps, ref);

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ request: { ref, workflowId: ref.id }, dockerfile: withDockerfile.Dockerfile, changed: 'new\n' });
    expect(checkouts).toEqual([expect.objectContaining({ url: 'https://example.com/repo.git', branch: 'main', commit })]);
    expect(stored().outputs.docker_image).toBe(image);
    expect(stored().stage_statuses.package).toBe('completed');
    const messages = logs().map((entry) => entry.message);
    expect(messages).toEqual(expect.arrayContaining(['building', `Container image built and pushed: ${image}`]));
    expect(logs().filter((entry) => entry.level === 'warn')).toEqual([]);
  });

  it('builds when the change set adds the Dockerfile', async () => {
    const { builder, seen } = recordingBuilder({ image });
    const { deps, stored } = await setUp({
      tree: { 'src/app.js': 'old\n' },
      changes: [...changeApp, { path: 'Dockerfile', content: 'FROM scratch\n' }],
      imageBuilder: builder,
    });

    await runPackage(deps, ref);

    expect(seen.map((s) => s.dockerfile)).toEqual(['FROM scratch\n']);
    expect(stored().outputs.docker_image).toBe(image);
  });

  it('fails the package when the image did not build, and names no image', async () => {
    const { builder } = recordingBuilder({ failed: 'image build FAILED at phase BUILD: exit status 1' });
    const { deps, stored, logs } = await setUp({ tree: withDockerfile, changes: changeApp, imageBuilder: builder });

    await expect(runPackage(deps, ref)).rejects.toThrow('container image build failed: image build FAILED at phase BUILD: exit status 1');

    expect(stored().outputs.docker_image).toBeNull();
    expect(stored().stage_statuses.package).not.toBe('completed');
    expect(
      logs()
        .filter((entry) => entry.level === 'error')
        .map((entry) => entry.message),
    ).toEqual(['package failed: container image build failed: image build FAILED at phase BUILD: exit status 1']);
  });

  it('calls no builder (and checks nothing out) when the tree has no Dockerfile', async () => {
    const { builder, seen } = recordingBuilder({ image });
    const { deps, checkouts, stored } = await setUp({ tree: { 'src/app.js': 'old\n' }, changes: changeApp, imageBuilder: builder });

    await runPackage(deps, ref);

    expect(seen).toEqual([]);
    expect(checkouts).toEqual([]);
    expect(stored().outputs.docker_image).toBeNull();
    expect(stored().stage_statuses.package).toBe('completed');
  });

  it('calls no builder when the change set deletes the Dockerfile', async () => {
    const { builder, seen } = recordingBuilder({ image });
    const { deps, stored } = await setUp({
      tree: withDockerfile,
      changes: [...changeApp, { path: 'Dockerfile', content: null }],
      imageBuilder: builder,
    });

    await runPackage(deps, ref);

    expect(seen).toEqual([]);
    expect(stored().outputs.docker_image).toBeNull();
  });

  it('looks into the tree when intake cut its file list before naming a Dockerfile', async () => {
    const found = recordingBuilder({ image });
    const cut = await setUp({
      tree: withDockerfile,
      listed: ['src/app.js'],
      truncated: true,
      changes: changeApp,
      imageBuilder: found.builder,
    });
    await runPackage(cut.deps, ref);
    expect(found.seen).toHaveLength(1);
    expect(cut.stored().outputs.docker_image).toBe(image);

    const none = recordingBuilder({ image });
    const without = await setUp({ tree: { 'src/app.js': 'old\n' }, truncated: true, changes: changeApp, imageBuilder: none.builder });
    await runPackage(without.deps, ref);
    expect(without.checkouts).toHaveLength(1);
    expect(none.seen).toEqual([]);
    expect(without.stored().outputs.docker_image).toBeNull();
  });

  it('without an image builder (local runtime) warns and leaves docker_image null', async () => {
    const { deps, checkouts, stored, logs } = await setUp({ tree: withDockerfile, changes: changeApp });

    await runPackage(deps, ref);

    expect(checkouts).toEqual([]);
    expect(stored().outputs.docker_image).toBeNull();
    expect(stored().stage_statuses.package).toBe('completed');
    expect(
      logs()
        .filter((entry) => entry.level === 'warn')
        .map((entry) => entry.message),
    ).toEqual(['The repository has a Dockerfile, but this deployment builds no container images: docker_image stays null']);
  });
});
