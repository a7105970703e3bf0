import { getRemediationPatch, patchMediaType } from '../../core/security/remediation-patch';
import { artifactStoreFromEnvironment } from '../../adapters/artifacts/artifact-runtime';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoFindingRepository } from '../../adapters/dynamodb/finding-repository';
import { apiHandler } from '../../http/api-handler';
import { bytesResponse } from '../../http/response';
import { getFindingPatchRoute } from '../../routes/security';

const deps = { findings: dynamoFindingRepository(tableFromEnvironment()), artifacts: artifactStoreFromEnvironment() };

/** The diff itself, as GitHub answers `.diff`: its own media type, its SHA-256 as the entity tag. */
export const handler = apiHandler(getFindingPatchRoute, async ({ principal, params }) => {
  const patch = await getRemediationPatch(principal, params.id, deps);
  return {
    response: bytesResponse(200, patch.body, `${patchMediaType}; charset=utf-8`, {
      ETag: `"${patch.sha256}"`,
      'Content-Disposition': `inline; filename="${patch.findingId}.patch"`,
    }),
  };
});
