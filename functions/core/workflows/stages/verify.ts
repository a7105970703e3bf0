import { verifyChangedFiles } from '../../verification/check-files';
import { applyChangeSet } from '../../workspace/apply-change-set';
import type { ChangeSet } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, readJson, withTreeAtIntakeCommit } from './stage-helpers';

/** Check the changed tree into a report. A failed check is a result, not an error: the state machine decides. */
export const runVerify = (deps: StageDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'verify', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    return withTreeAtIntakeCommit(deps, ref, workflow, log, async (dir) => {
      await applyChangeSet(dir, changes.files);
      const changed = changes.files.filter((file) => file.content !== null).map((file) => file.path);
      const report = await verifyChangedFiles(dir, changed);
      const stored = await putJson(deps, artifactKeys.verification(ref), report);
      for (const check of report.checks) {
        if (check.status === 'skipped') await log.info(`${check.name} ${check.path}: skipped (${check.message ?? 'no checker'})`);
      }
      for (const problem of report.problems) {
        await log.warn(`${problem.check} ${problem.path}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`);
      }
      const ran = report.checks.filter((check) => check.status !== 'skipped').length;
      await log.info(report.passed ? `Verification passed (${ran} checks)` : `Verification failed: ${report.problems.length} problems in ${ran} checks`);
      return {
        answer: { passed: report.passed },
        outputs: { verification: { ...stored, passed: report.passed, problems: report.problems.length } },
      };
    });
  });
