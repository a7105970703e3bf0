import { createBundle } from '../../workspace/bundle';
import type { ChangeSet, RepositoryContext } from '../stage-data';
import type { WorkflowOutputs, WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { readArtifact, readJson, repositoryOf } from './stage-helpers';

/** Store the change as a bundle; push it as a branch when push credentials are configured. */
export const runPackage = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'package', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    const context = await readJson<RepositoryContext>(deps, artifactKeys.context(ref));
    const patch = await readArtifact(deps, artifactKeys.patch(ref));
    const provenance = await readArtifact(deps, artifactKeys.provenance(ref));

    const bundle = await deps.artifacts.put(
      artifactKeys.bundle(ref),
      createBundle({ changes: changes.files, diff: patch.toString('utf8'), extra: { 'provenance.dsse.json': provenance } }),
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

    const dockerfile = changes.files.some((file) => file.path === 'Dockerfile' && file.content !== null) || context.files.some((file) => file.path === 'Dockerfile');
    if (dockerfile) await log.warn('The repository has a Dockerfile, but this deployment builds no container images: docker_image stays null');
    if (workflow.config.auto_deploy) {
      if (!deps.autoDeployer) {
        await log.warn('auto_deploy was requested, but deployments are not available here: deployment_url stays null');
      } else {
        const outcome = await deps.autoDeployer.deploy(ref, workflow, bundle, outputs.pushed_branch ?? context.branch);
        if (outcome.kind === 'skipped') {
          await log.warn(`auto_deploy skipped: ${outcome.reason}`);
        } else if (outcome.kind === 'still_running') {
          await log.warn(`Deployment ${outcome.deployment_id} is still in progress; its events will tell how it ends: deployment_url stays null`);
          outputs.deployment_id = outcome.deployment_id;
        } else {
          outputs.deployment_id = outcome.deployment_id;
          if (outcome.status !== 'completed') throw new Error(`auto deploy ${outcome.deployment_id} ${outcome.status}: ${outcome.error ?? 'no reason given'}`);
          outputs.deployment_url = outcome.url;
          await log.info(`Deployed as ${outcome.deployment_id}${outcome.url ? ` at ${outcome.url}` : ''}`);
        }
      }
    }
    return { answer: {}, outputs };
  });
