import { authorizationServerMetadata } from '../../core/oauth/metadata';
import { createOAuthHandler } from '../../http/oauth/oauth-handler';
import { publicOrigin } from '../../http/pages/origin';
import { jsonResponse } from '../../http/response';
import { metadataRoute } from '../../routes/oauth';

export const handler = createOAuthHandler(metadataRoute, async (event) =>
  jsonResponse(200, authorizationServerMetadata(publicOrigin(event)), { 'Cache-Control': 'public, max-age=300' }),
);
