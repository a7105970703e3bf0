import { createBundle } from '../../workspace/bundle';
import type { ChangeSet, RepositoryContext } from '../stage-data';
import type { Workflow, WorkflowOutputs, WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import type { AutoDeployAnswer } from './auto-deploy';
import type { ImageBuilder } from './image-build';
import { runStage, type StageLog } from './run-stage';
import type { StageDeps } from './stage-deps';
import { readArtifact, readJson, repositoryOf, withTreeAtIntakeCommit } from './stage-helpers';

/**
 * Whether the packaged tree (intake's commit with the change set) has a Dockerfile at its root:
 * the change set decides for a file it writes or deletes, else intake's file list; `unknown` when
 * that list was cut at its cap without naming one.
 */
const dockerfileOf = (changes: ChangeSet, context: RepositoryContext): 'yes' | 'no' | 'unknown' => {
  const changed = changes.files.find((file) => file.path === 'Dockerfile');
  if (changed) return changed.content === null ? 'no' : 'yes';
  if (context.files.some((file) => file.path === 'Dockerfile')) return 'yes';
  return context.filesTruncated ? 'unknown' : 'no';
};

/**
 * The container image of the packaged tree, built and pushed by the image builder; undefined when
 * the checked-out tree has no Dockerfile after all. An image that did not build fails the package:
 * docker_image names only an image that exists.
 */
const buildImage = (
  deps: StageDeps,
  builder: ImageBuilder,
  ref: WorkflowRef,
  workflow: Workflow,
  log: StageLog,
  changes: ChangeSet,
): Promise<string | undefined> =>
  withTreeAtIntakeCommit(deps, ref, workflow, log, async (tree) => {
    await tree.apply(changes.files);
    if (!(await tree.isFile('Dockerfile'))) {
      await log.debug('The packaged tree has no Dockerfile at its root: no container image');
      return undefined;
    }
    await log.info('The packaged tree has a Dockerfile: building its container image');
    const outcome = await builder.build({ ref, workflowId: workflow.id, tree: tree.dir, log: log.info });
    if ('failed' in outcome) throw new Error(`container image build failed: ${outcome.failed}`);
    await log.info(`Container image built and pushed: ${outcome.image}`);
    return outcome.image;
  });

/** Store the change as a bundle; push it as a branch when push credentials are configured. */
export const runPackage = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'package', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    const context = await readJson<RepositoryContext>(deps, artifactKeys.context(ref));
    const patch = await readArtifact(deps, artifactKeys.patch(ref));
    const provenance = await readArtifact(deps, artifactKeys.provenance(ref));

    const bundle = await deps.artifacts.put(
      artifactKeys.bundle(ref),
      await createBundle({ changes: changes.files, diff: patch.toString('utf8'), extra: { 'provenance.dsse.json': provenance } }),
      'application/gzip',
    );
    await log.info(`Bundle stored: ${bundle.size} bytes, sha256 ${bundle.sha256}`);
    const outputs: Partial<WorkflowOutputs> = { bundle };

    if (deps.repository.pushBranch) {
      const branch = `automation/${workflow.id}`;
      const pushed = await deps.repository.pushBranch({
        url: await repositoryOf(deps, ref, workflow),
        baseCommit: context.commit,
        branch,
        changes,
        message: `${workflow.name}\n\n${changes.summary}\n\nWorkflow: ${workflow.id}`,
        author: { name: 'Project Automation Service', email: 'automation@localhost' },
      });
      outputs.pushed_branch = pushed.branch;
      await log.info(`Pushed branch ${pushed.branch} at ${pushed.commit}`);
    } else {
      await log.info('No push credentials configured: the change stays in the bundle');
    }

    const dockerfile = dockerfileOf(changes, context);
    if (deps.imageBuilder && dockerfile !== 'no') {
      const image = await buildImage(deps, deps.imageBuilder, ref, workflow, log, changes);
      if (image) outputs.docker_image = image;
    } else if (dockerfile === 'yes') {
      await log.warn('The repository has a Dockerfile, but this deployment builds no container images: docker_image stays null');
    }
    const answer: AutoDeployAnswer = { auto_deploy: { started: false, deployment_id: null } };
    if (workflow.config.auto_deploy) {
      if (!deps.autoDeployer) {
        await log.warn('auto_deploy was requested, but deployments are not available here: deployment_url stays null');
      } else {
        const outcome = await deps.autoDeployer.start(ref, workflow, bundle, outputs.pushed_branch ?? context.branch);
        if (outcome.kind === 'skipped') {
          await log.warn(`auto_deploy skipped: ${outcome.reason}`);
        } else {
          // The state machine waits for it (CheckAutoDeploy), not this function.
          outputs.deployment_id = outcome.deployment_id;
          answer.auto_deploy = { started: true, deployment_id: outcome.deployment_id };
          await log.info(`Deployment ${outcome.deployment_id} started; the workflow completes when it does`);
        }
      }
    }
    return { answer, outputs };
  });
