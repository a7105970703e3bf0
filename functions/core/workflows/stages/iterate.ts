import type { ChangeSet, VerificationReport } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { storeChange } from './build';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, readJson, withTreeAtIntakeCommit } from './stage-helpers';

export interface IterationBudget {
  remaining: number;
  used: number;
  /**
   * The AI's fix left no change (every file dropped): nothing for verify to check again, so the
   * state machine fails the workflow at `verify`, whose check did not pass, not at iterate.
   */
  no_change?: true;
}

/**
 * Ask the AI to fix what verify reported; the state machine sends the result back to verify, or,
 * when the fix leaves no change, fails the workflow at verify.
 */
export const runIterate = (deps: StageDeps, ref: WorkflowRef, budget: IterationBudget) =>
  runStage<IterationBudget>(deps, ref, 'iterate', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    const report = await readJson<VerificationReport>(deps, artifactKeys.verification(ref));
    const round = budget.used + 1;
    await log.info(`Iteration ${round} of at most ${budget.used + budget.remaining}: ${report.problems.length} problems to fix`);
    return withTreeAtIntakeCommit(deps, ref, workflow, log, async (tree) => {
      const originals = Object.fromEntries(
        await Promise.all(changes.files.map(async (file) => [file.path, await tree.readText(file.path).catch(() => null)] as const)),
      );
      const ai = await deps.aiProvider(workflow.config.ai_provider);
      await log.info(`Asking ${ai.name} to fix the reported problems`);
      const answer = await ai.run({ kind: 'fix', prompt: workflow.prompt, changes, report, originals });
      if (answer.output.files.length === 0) {
        await log.warn(`The AI fix leaves no change: the ${report.problems.length} problems verify reported stand`);
        return {
          answer: { remaining: budget.remaining - 1, used: round, no_change: true },
          outputs: { iterations: round },
          usage: { ...answer.usage, provider: answer.provider, model: answer.model },
        };
      }
      await putJson(deps, artifactKeys.iteration(ref, round), answer.output);
      const diff = await storeChange(deps, ref, tree, answer.output, log);
      return {
        answer: { remaining: budget.remaining - 1, used: round },
        outputs: { diff, iterations: round },
        usage: { ...answer.usage, provider: answer.provider, model: answer.model },
      };
    });
  });
