import { getRemediationPatch, patchMediaType } from '../../../core/security/remediation-patch';
import { artifactReaderFromEnvironment } from '../../../adapters/artifacts/artifact-reader-runtime';
import { tableFromEnvironment } from '../../../adapters/dynamodb/client';
import { dynamoFindingRepository } from '../../../adapters/dynamodb/finding-repository';
import { dashboardPage } from '../../../http/pages/dashboard-page';
import { bytesResponse } from '../../../http/response';
import { findingPatchPageRoute } from '../../../routes/dashboard-resources';

const deps = { findings: dynamoFindingRepository(tableFromEnvironment()), artifacts: artifactReaderFromEnvironment() };

/** The whole patch, as `GET /v1/security/findings/{id}/patch` answers it, for the signed-in browser. */
export const handler = dashboardPage(findingPatchPageRoute, async (request) => {
  const patch = await getRemediationPatch(request.tenant, request.event.pathParameters?.id ?? '', deps);
  return {
    response: bytesResponse(200, patch.body, `${patchMediaType}; charset=utf-8`, {
      ETag: `"${patch.sha256}"`,
      'Content-Disposition': `inline; filename="${patch.findingId}.patch"`,
    }),
  };
});
