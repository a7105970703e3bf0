import type { RawFinding } from '../../security/scanner';
import type { ChangeSet, VerificationReport } from '../stage-data';
import type { WorkflowRef } from '../workflow';
import { artifactKeys } from './artifact-keys';
import { runStage } from './run-stage';
import type { StageDeps } from './stage-deps';
import { putJson, readJson, withTreeAtIntakeCommit } from './stage-helpers';
import { reviewBuildChange, reviewOutput, withReviewProblems, type ReviewingDeps, type VerifyReview } from './verify-review';

/** The checks of the changed files (syntax, types, well-formed data) in the tree at `dir`, as a report. */
export type CheckChangedFiles = (dir: string, changedPaths: string[]) => Promise<VerificationReport>;

export interface VerifyDeps extends ReviewingDeps {
  checkFiles: CheckChangedFiles;
}

/** Each security scanner's findings over the changed tree. */
const scanTree = async (deps: StageDeps, dir: string, changed: string[]): Promise<Array<{ type: string; findings: RawFinding[] }>> => {
  if (!deps.securityScanners?.length || changed.length === 0) return [];
  const results: Array<{ type: string; findings: RawFinding[] }> = [];
  for (const scanner of deps.securityScanners) results.push({ type: scanner.type, findings: (await scanner.scan(dir)).findings });
  return results;
};

/**
 * The security scanners over the changed tree: a secret or an unsafe pattern in a file the change
 * touched fails verification like a type error (findings elsewhere are the scans' business).
 */
const withSecurityFindings = (
  report: VerificationReport,
  scans: Array<{ type: string; findings: RawFinding[] }>,
  changed: string[],
): VerificationReport => {
  if (scans.length === 0) return report;
  const touched = new Set(changed);
  const checks = [...report.checks];
  const problems = [...report.problems];
  for (const scan of scans) {
    const inChange = scan.findings.filter((finding) => touched.has(finding.location.path));
    for (const path of changed) {
      const own = inChange.filter((finding) => finding.location.path === path);
      checks.push({
        name: scan.type,
        path,
        status: own.length > 0 ? 'failed' : 'passed',
        ...(own.length > 0 ? { message: `${own.length} finding(s)` } : {}),
      });
    }
    for (const finding of inChange) {
      problems.push({
        check: scan.type,
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

/**
 * Check the changed tree into a report, and review the change (unless config.review is false): the
 * review's AI comments of severity high or worse are failures too. A failed check is a result, not
 * an error: the state machine decides.
 */
export const runVerify = (deps: VerifyDeps, ref: WorkflowRef) =>
  runStage(deps, ref, 'verify', async ({ workflow, log }) => {
    const changes = await readJson<ChangeSet>(deps, artifactKeys.changes(ref));
    return withTreeAtIntakeCommit(deps, ref, workflow, log, async (tree) => {
      const { originals } = await tree.apply(changes.files);
      const changed = changes.files.filter((file) => file.content !== null).map((file) => file.path);
      const checks = await deps.checkFiles(tree.dir, changed);
      const scans = await scanTree(deps, tree.dir, changed);
      let report = withSecurityFindings(checks, scans, changed);
      let review: VerifyReview | null = null;
      if (workflow.config.review !== false && deps.reviews) {
        review = await reviewBuildChange(
          { ...deps, reviews: deps.reviews },
          ref,
          workflow,
          { changes, originals, analysis: { checks, findings: scans.flatMap((scan) => scan.findings) } },
          log,
        );
        report = withReviewProblems(report, review?.blocking ?? []);
      }
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
      const usage = review?.review.ai_usage;
      return {
        answer: { passed: report.passed },
        outputs: {
          verification: { ...stored, passed: report.passed, problems: report.problems.length },
          ...(deps.reviews && workflow.config.review !== false ? { review: reviewOutput(review) } : {}),
        },
        ...(usage
          ? {
              usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, provider: usage.provider, model: usage.model },
            }
          : {}),
      };
    });
  });
