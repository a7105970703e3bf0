import type { ChangeSet, VerificationReport } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, readJson, withTreeAtIntakeCommit } from './stage-helpers';

/** The checks of the changed files (syntax, types, well-formed data) in the tree at `dir`, as a report. */
export type CheckChangedFiles = (dir: string, changedPaths: string[]) => Promise<VerificationReport>;

export interface VerifyDeps extends StageDeps {
  checkFiles: CheckChangedFiles;
}

/**
 * The security scanners over the changed tree: a secret or an unsafe pattern in a file the change
 * touched fails verification like a type error (findings elsewhere are the scans' business).
 */
const withSecurityFindings = async (
  report: VerificationReport,
  deps: StageDeps,
  dir: string,
  changed: string[],
): Promise<VerificationReport> => {
  if (!deps.securityScanners?.length || changed.length === 0) return report;
  const touched = new Set(changed);
  const checks = [...report.checks];
  const problems = [...report.problems];
  for (const scanner of deps.securityScanners) {
    const result = await scanner.scan(dir);
    const inChange = result.findings.filter((finding) => touched.has(finding.location.path));
    for (const path of changed) {
      const own = inChange.filter((finding) => finding.location.path === path);
      checks.push({
        name: scanner.type,
        path,
        status: own.length > 0 ? 'failed' : 'passed',
        ...(own.length > 0 ? { message: `${own.length} finding(s)` } : {}),
      });
    }
    for (const finding of inChange) {
      problems.push({
        check: scanner.type,
        path: finding.location.path,
        line: finding.location.line,
        message: `${finding.rule_id}: ${finding.title}`,
      });
    }
  }
  const order = (a: { path: string; name?: string; check?: string }, b: { path: string; name?: string; check?: string }) =>
    a.path.localeCompare(b.path) || (a.name ?? a.check ?? '').localeCompare(b.name ?? b.check ?? '');
  return {
    passed: report.passed && problems.length === report.problems.length,
    checks: checks.sort(order),
    problems: problems.sort(order),
  };
};

/** Check the changed tree into a report. A failed check is a result, not an error: the state machine decides. */
export const runVerify = (deps: VerifyDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'verify', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    return withTreeAtIntakeCommit(deps, ref, workflow, log, async (tree) => {
      await tree.apply(changes.files);
      const changed = changes.files.filter((file) => file.content !== null).map((file) => file.path);
      const report = await withSecurityFindings(await deps.checkFiles(tree.dir, changed), deps, tree.dir, changed);
      const stored = await putJson(deps, artifactKeys.verification(ref), report);
      for (const check of report.checks) {
        if (check.status === 'skipped') await log.info(`${check.name} ${check.path}: skipped (${check.message ?? 'no checker'})`);
      }
      for (const problem of report.problems) {
        await log.warn(`${problem.check} ${problem.path}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`);
      }
      const ran = report.checks.filter((check) => check.status !== 'skipped').length;
      await log.info(
        report.passed ? `Verification passed (${ran} checks)` : `Verification failed: ${report.problems.length} problems in ${ran} checks`,
      );
      return {
        answer: { passed: report.passed },
        outputs: { verification: { ...stored, passed: report.passed, problems: report.problems.length } },
      };
    });
  });
