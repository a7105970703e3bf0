import { isoTime, type Clock } from '../clock';
import { changeOptimistically } from '../optimistic-update';
import type { Tenant } from '../tenancy';
import type { FileChange } from '../workflows/stage-data';
import { unifiedDiff } from '../workspace/diff';
import { assertRepositoryPath } from '../workspace/repository-path';
import type { WorkingTree } from '../workspace/working-tree';
import type { Finding, FindingRepository } from './finding';
import { fingerprintOf } from './finding';
import type { SecurityJobDeps } from './job-deps';
import type { SecurityJobRef } from './security-jobs';
import { findingSnapshot } from './snapshots';

/** The artifact store's prefix of remediation patches (IAM grants name it). */
export const findingArtifactPrefix = 'findings/';

/** Where a finding's verified patch is kept in the artifact store (one per finding: a new remediation replaces it). */
export const remediationPatchKey = (tenant: Tenant, findingId: string): string =>
  `${findingArtifactPrefix}${tenant.accountId}/${tenant.mode}/${findingId}/remediation.patch`;

/** Ends a remediation: the finding changed, with the event that tells that end, in one write. */
const endRemediation = async (
  deps: { findings: FindingRepository; clock: Clock },
  tenant: Tenant,
  id: string,
  event: 'security.finding.resolved' | 'security.finding.remediation.failed',
  change: (finding: Finding, nowIso: string) => Finding | null,
): Promise<Finding> => {
  const stored = await changeOptimistically(
    `finding ${id}`,
    () => deps.findings.get(tenant, id),
    (current) => {
      const nowIso = isoTime(deps.clock.now());
      const next = change(current, nowIso);
      return next && { ...next, updated_at: nowIso, revision: current.revision + 1 };
    },
    async (current, next) =>
      (await deps.findings.save(tenant, current, next, [{ type: event, data: findingSnapshot(next) }])) ? next : null,
  );
  if (!stored) throw new Error(`finding ${id} not found`);
  return stored;
};

/**
 * The remediation did not work: the finding is open again, with the reason
 * (`security.finding.remediation.failed`). A finding no longer `remediating` (a scan resolved it
 * meanwhile, or another path ended it) is left as it is: its remediation's end was told already.
 */
export const remediationFailed = (
  deps: { findings: FindingRepository; clock: Clock },
  tenant: Tenant,
  id: string,
  reason: string,
): Promise<Finding> =>
  endRemediation(deps, tenant, id, 'security.finding.remediation.failed', (finding, nowIso) => {
    if (finding.status !== 'remediating' || !finding.remediation) return null;
    return { ...finding, status: 'open', remediation: { ...finding.remediation, status: 'failed', completed_at: nowIso, error: reason } };
  });

/** The change that should remove the finding: the mechanical upgrade, or the AI's patch. */
const proposeChange = async (
  deps: SecurityJobDeps,
  finding: Finding,
  tree: WorkingTree,
): Promise<{ method: 'upgrade' | 'ai'; files: FileChange[] }> => {
  if (finding.type === 'dependencies') {
    const files = await deps.planUpgrade(tree.dir, finding.details);
    if (!files || files.length === 0)
      throw new Error('no mechanical upgrade is possible: the advisory names no fixed version, or the lockfile entry was not found');
    return { method: 'upgrade', files };
  }
  assertRepositoryPath(finding.location.path);
  const content = await tree.readText(finding.location.path).catch(() => null);
  if (content === null) throw new Error(`${finding.location.path} is not in the branch any more`);
  const provider = await deps.aiProvider();
  const answer = await provider.run({
    kind: 'remediation',
    finding: {
      type: finding.type,
      rule_id: finding.rule_id,
      title: finding.title,
      description: finding.description,
      location: finding.location,
      excerpt: finding.excerpt,
    },
    file: { path: finding.location.path, content },
  });
  if (answer.output.files.length === 0) throw new Error(`${provider.name} proposed no change`);
  return { method: 'ai', files: answer.output.files };
};

/**
 * Remediates one finding: proposes the change on the branch's current tree, applies it, and
 * re-runs the finding's scanner on the patched tree. Only a patch after which the finding is gone
 * counts: the finding is then `resolved` (`remediated`, event `security.finding.resolved`, which
 * alone tells that end) with the patch and, when push credentials are configured, the pushed
 * branch; otherwise it is open again with the reason (`security.finding.remediation.failed`).
 */
export const runRemediation = async (deps: SecurityJobDeps, ref: SecurityJobRef): Promise<Finding> => {
  const tenant: Tenant = { accountId: ref.account_id, mode: ref.mode };
  const finding = await deps.findings.get(tenant, ref.id);
  if (!finding || finding.status !== 'remediating') throw new Error(`finding ${ref.id} is not being remediated`);
  try {
    const project = await deps.projects.get(tenant, finding.project_id);
    if (!project) throw new Error(`project ${finding.project_id} no longer exists`);
    const tree = await deps.scratch.create();
    try {
      const { commit } = await deps.repository.checkout({ url: project.repository, branch: finding.branch, dir: tree.dir });
      const { method, files } = await proposeChange(deps, finding, tree);
      const { originals } = await tree.apply(files);
      const patch = unifiedDiff(originals, files);
      const rescan = await deps.scanner(finding.type).scan(tree.dir);
      if (rescan.findings.some((raw) => fingerprintOf(raw) === finding.fingerprint)) {
        return await remediationFailed(
          deps,
          tenant,
          finding.id,
          `the ${method === 'upgrade' ? 'upgrade' : 'proposed patch'} was verified by re-running the ${finding.type} scanner, which still reports the finding`,
        );
      }
      // Kept and shown by the API: the removed line of a secrets finding is the secret itself.
      const stored = await deps.artifacts.put(remediationPatchKey(tenant, finding.id), await deps.maskSecrets(patch), 'text/x-diff');
      let pushedBranch: string | null = null;
      if (deps.repository.pushBranch) {
        const pushed = await deps.repository.pushBranch({
          url: project.repository,
          baseCommit: commit,
          branch: `remediation/${finding.id}`,
          changes: { summary: `Remediate ${finding.rule_id}`, files },
          message: `Remediate ${finding.title}\n\nFinding: ${finding.id} (${finding.rule_id})`,
          author: { name: 'Project Automation Service', email: 'automation@localhost' },
        });
        pushedBranch = pushed.branch;
      }
      return await endRemediation(deps, tenant, finding.id, 'security.finding.resolved', (current, nowIso) => {
        if (current.status !== 'remediating' || !current.remediation) return null;
        return {
          ...current,
          status: 'resolved',
          resolution: 'remediated',
          resolved_at: nowIso,
          remediation: {
            ...current.remediation,
            status: 'completed',
            method,
            completed_at: nowIso,
            patch: stored,
            pushed_branch: pushedBranch,
          },
        };
      });
    } finally {
      await tree.dispose();
    }
  } catch (error) {
    return remediationFailed(deps, tenant, finding.id, error instanceof Error ? error.message : String(error));
  }
};
