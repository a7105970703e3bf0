import { conflict, notFound } from '../errors';
import type { Tenant } from '../tenancy';
import { sha256Hex, type ArtifactStore } from '../workspace/artifact-store';
import type { FindingRepository } from './finding';
import { remediationPatchKey } from './remediate';
import { getFinding } from './security-use-cases';

/** The media type of a patch: a unified diff, `git diff` style (as GitHub serves `.diff`). */
export const patchMediaType = 'text/x-diff';

export interface RemediationPatch {
  findingId: string;
  /** The unified diff, as stored (secrets masked, see `runRemediation`). */
  body: Buffer;
  /** Lowercase hex SHA-256 of `body`: the finding's `remediation.patch.sha256`. */
  sha256: string;
}

export interface RemediationPatchDeps {
  findings: Pick<FindingRepository, 'get'>;
  /** Only reads: the API and the pages never write an artifact. */
  artifacts: Pick<ArtifactStore, 'get'>;
}

/**
 * The verified patch of a finding's last remediation. The finding is looked up in the caller's
 * account and mode first (404 otherwise), and a finding without a stored patch (never remediated,
 * in progress, failed) is 404 too. The body is checked against the SHA-256 the finding recorded:
 * a remediation that replaced the patch meanwhile is a 409 (read the finding again).
 */
export const getRemediationPatch = async (tenant: Tenant, id: string, deps: RemediationPatchDeps): Promise<RemediationPatch> => {
  const finding = await getFinding(tenant, id, deps);
  const recorded = finding.remediation?.patch;
  if (!recorded) throw notFound('Remediation patch');
  const body = await deps.artifacts.get(remediationPatchKey(tenant, finding.id));
  if (!body) throw notFound('Remediation patch');
  const sha256 = sha256Hex(body);
  if (sha256 !== recorded.sha256) throw conflict('The finding was remediated again meanwhile; read it again and retry.');
  return { findingId: finding.id, body, sha256 };
};
