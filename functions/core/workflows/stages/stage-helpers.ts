import { createHash } from 'node:crypto';
import type { ArtifactRef, Workflow, WorkflowRef } from '../workflow';
import { tenantOf } from '../workflow';
import type { StageDeps } from './stage-deps';
import type { StageLog } from './run-stage';
import type { WorkingTree } from '../../workspace/working-tree';

export const sha256 = (body: Buffer | string): string => createHash('sha256').update(body).digest('hex');

export const putJson = (deps: Pick<StageDeps, 'artifacts'>, key: string, value: unknown): Promise<ArtifactRef> =>
  deps.artifacts.put(key, `${JSON.stringify(value, null, 2)}\n`, 'application/json');

export const readArtifact = async (deps: Pick<StageDeps, 'artifacts'>, key: string): Promise<Buffer> => {
  const body = await deps.artifacts.get(key);
  if (!body) throw new Error(`artifact ${key.split('/').pop()} of an earlier stage is missing`);
  return body;
};

export const readJson = async <T>(deps: Pick<StageDeps, 'artifacts'>, key: string): Promise<T> =>
  JSON.parse((await readArtifact(deps, key)).toString('utf8')) as T;

/**
 * The repository the workflow works on: the one intake recorded, so a project whose `repository`
 * changes meanwhile changes nothing for a workflow under way. Before intake recorded it (intake
 * itself, and workflows stored before it was kept) the project's.
 */
export const repositoryOf = async (deps: Pick<StageDeps, 'projects'>, ref: WorkflowRef, workflow: Workflow): Promise<string> => {
  if (workflow.outputs.repository) return workflow.outputs.repository;
  const project = await deps.projects.get(tenantOf(ref), workflow.project_id);
  if (!project) throw new Error(`project ${workflow.project_id} no longer exists`);
  return project.repository;
};

/**
 * The tree intake saw: the same repository and branch, checked to be at the same commit, so every
 * stage works on the code the plan was made for.
 */
export const withTreeAtIntakeCommit = async <T>(
  deps: StageDeps,
  ref: WorkflowRef,
  workflow: Workflow,
  log: StageLog,
  use: (tree: WorkingTree) => Promise<T>,
): Promise<T> => {
  const { commit, branch } = workflow.outputs;
  if (!commit || !branch) throw new Error('intake recorded no commit');
  const url = await repositoryOf(deps, ref, workflow);
  const tree = await deps.scratch.create();
  try {
    const checkedOut = await deps.repository.checkout({ url, branch, dir: tree.dir, commit });
    if (checkedOut.commit !== commit) throw new Error(`branch ${branch} moved from ${commit} to ${checkedOut.commit} during the workflow`);
    await log.debug(`Checked out ${branch} at ${commit}`);
    return await use(tree);
  } finally {
    await tree.dispose();
  }
};

/** Added and removed lines of a unified diff. */
export const diffStats = (patch: string): { additions: number; deletions: number } => {
  let additions = 0;
  let deletions = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) additions += 1;
    else if (line.startsWith('-')) deletions += 1;
  }
  return { additions, deletions };
};
