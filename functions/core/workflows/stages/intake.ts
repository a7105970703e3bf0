import type { Plan, RepositoryContext } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, repositoryOf } from './stage-helpers';

/**
 * Fetch the repository at the branch, gather its context, ask the AI for a plan. The repository,
 * branch and commit it recorded are the ones every later stage works on.
 */
export const runIntake = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'intake', async ({ workflow, log }) => {
    const url = await repositoryOf(deps, ref, workflow);
    await log.info(`Fetching ${url} at ${workflow.config.branch ?? 'its default branch'}`);
    const tree = await deps.scratch.create();
    let context: RepositoryContext;
    try {
      const { commit, branch } = await deps.repository.checkout({ url, branch: workflow.config.branch ?? undefined, dir: tree.dir });
      await log.info(`Checked out ${branch} at ${commit}`);
      context = await tree.describe({ repository: url, branch, commit });
    } finally {
      await tree.dispose();
    }
    await log.info(
      `${context.files.length}${context.filesTruncated ? '+' : ''} files; languages: ${context.languages.join(', ') || 'none recognised'}; manifests: ${Object.keys(context.manifests).join(', ') || 'none'}`,
    );

    const ai = await deps.aiProvider(workflow.config.ai_provider);
    await log.info(`Asking ${ai.name} for a plan`);
    const answer = await ai.run({ kind: 'plan', prompt: workflow.prompt, context });
    const plan: Plan = answer.output;
    await putJson(deps, artifactKeys.context(ref), context);
    await putJson(deps, artifactKeys.plan(ref), plan);
    await log.info(
      `Plan: ${plan.summary} (${plan.steps.length} steps; ${answer.usage.input_tokens} + ${answer.usage.output_tokens} tokens)`,
    );
    return {
      answer: {},
      outputs: { repository: url, commit: context.commit, branch: context.branch, plan: { summary: plan.summary, steps: plan.steps } },
      usage: { ...answer.usage, provider: answer.provider, model: answer.model },
    };
  });
