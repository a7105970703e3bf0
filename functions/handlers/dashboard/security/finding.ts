import { ApiError } from '../../../core/errors';
import { getRemediationPatch } from '../../../core/security/remediation-patch';
import { getFinding } from '../../../core/security/security-use-cases';
import type { Tenant } from '../../../core/tenancy';
import { artifactReaderFromEnvironment } from '../../../adapters/artifacts/artifact-reader-runtime';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { FindingPage, type PatchView } from '../../../pages/views/dashboard/security/finding';
import { findingPageRoute } from '../../../routes/dashboard-resources';
import { securityDeps } from '../../security/deps';

const notices: Record<string, string> = { remediating: 'Remediation started: the patch is verified by scanning again.' };

/** The page shows this much of a patch; the rest is one link away (the raw patch). */
export const shownPatchBytes = 64 * 1024;

const deps = () => ({ ...securityDeps(), artifacts: artifactReaderFromEnvironment() });

/** The patch as the API serves it (same use case), cut to what a page should hold. */
const patchView = async (tenant: Tenant, id: string, patchDeps: ReturnType<typeof deps>): Promise<PatchView> => {
  try {
    const { body } = await getRemediationPatch(tenant, id, patchDeps);
    // Cut at a line end, so no character or line is shown in half.
    const cutAt = body.length <= shownPatchBytes ? body.length : body.lastIndexOf(0x0a, shownPatchBytes) + 1 || shownPatchBytes;
    return { text: body.subarray(0, cutAt).toString('utf8'), shownBytes: cutAt, totalBytes: body.length };
  } catch (error) {
    if (error instanceof ApiError) return { unavailable: `The patch cannot be shown now: ${error.message}` };
    throw error;
  }
};

export const handler = dashboardPage(findingPageRoute, async (request) => {
  const all = deps();
  const finding = await getFinding(request.tenant, request.event.pathParameters?.id ?? '', all);
  return {
    page: FindingPage({
      shell: request.shell,
      finding,
      patch: finding.remediation?.patch ? await patchView(request.tenant, finding.id, all) : undefined,
      notice: notices[request.query.get('done') ?? ''],
    }),
  };
});
