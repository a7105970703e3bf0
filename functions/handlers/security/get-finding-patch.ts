import { getRemediationPatch, patchMediaType } from '../../core/security/remediation-patch';
import { artifactReaderFromEnvironment } from '../../adapters/artifacts/artifact-reader-runtime';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoFindingReader } from '../../adapters/dynamodb/finding-repository';
import { apiReadHandler } from '../../http/api-handler';
import { ifNoneMatchHolds } from '../../http/entity-tag';
import { bytesResponse, emptyResponse } from '../../http/response';
import { getFindingPatchRoute } from '../../routes/security';

const deps = { findings: dynamoFindingReader(tableFromEnvironment()), artifacts: artifactReaderFromEnvironment() };

/**
 * The diff itself, as GitHub answers `.diff`: its own media type, its SHA-256 as the entity tag, and
 * 304 to a client that already holds that body. `private, no-cache` lets a browser keep it and ask again.
 */
export const handler = apiReadHandler(getFindingPatchRoute, async ({ principal, params, event }) => {
  const patch = await getRemediationPatch(principal, params.id, deps);
  const validators = { ETag: `"${patch.sha256}"`, 'Cache-Control': 'private, no-cache' };
  if (ifNoneMatchHolds(event.headers['if-none-match'], validators.ETag)) return { response: emptyResponse(304, validators) };
  return {
    response: bytesResponse(200, patch.body, `${patchMediaType}; charset=utf-8`, {
      ...validators,
      'Content-Disposition': `inline; filename="${patch.findingId}.patch"`,
    }),
  };
});
