import { unifiedDiff } from '../../workspace/diff';
import type { WorkingTree } from '../../workspace/working-tree';
import type { ChangeSet, Plan, RepositoryContext } from '../stage-data';
import type { WorkflowOutputs, WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage, type StageLog } from './run-stage';
import type { StageDeps } from './stage-deps';
import { diffStats, putJson, readJson, withTreeAtIntakeCommit } from './stage-helpers';

/** Applies a change set to the tree (refusing unsafe paths), stores it and its diff. */
export const storeChange = async (
  deps: StageDeps,
  ref: WorkflowRef,
  tree: WorkingTree,
  changes: ChangeSet,
  log: StageLog,
): Promise<WorkflowOutputs['diff']> => {
  const { originals } = await tree.apply(changes.files);
  const patch = unifiedDiff(originals, changes.files);
  await putJson(deps, artifactKeys.changes(ref), changes);
  const stored = await deps.artifacts.put(artifactKeys.patch(ref), patch, 'text/x-diff');
  const stats = diffStats(patch);
  for (const file of changes.files)
    await log.info(`${file.content === null ? 'delete' : originals[file.path] === null ? 'create' : 'edit'} ${file.path}`);
  await log.info(`Diff: ${changes.files.length} files, +${stats.additions} -${stats.deletions}`);
  return { ...stored, files_changed: changes.files.length, ...stats };
};

/** Ask the AI for the change set, apply it to the working tree, store the diff. */
export const runBuild = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'build', async ({ workflow, log }) => {
    const plan = await readJson<Plan>(deps, artifactKeys.plan(ref));
    const context = await readJson<RepositoryContext>(deps, artifactKeys.context(ref));
    return withTreeAtIntakeCommit(deps, ref, workflow, log, async (tree) => {
      const files = await tree.readFiles(plan.files);
      const ai = await deps.aiProvider(workflow.config.ai_provider);
      await log.info(`Asking ${ai.name} for the change set (${Object.keys(files).length} files as context)`);
      const answer = await ai.run({ kind: 'change_set', prompt: workflow.prompt, plan, context, files });
      if (answer.output.files.length === 0) throw new Error('the AI proposed no change');
      const diff = await storeChange(deps, ref, tree, answer.output, log);
      return { answer: {}, outputs: { diff }, usage: { ...answer.usage, provider: answer.provider, model: answer.model } };
    });
  });
