import { createOAuthHandler } from '../../http/oauth/oauth-handler';
import { handleRevokeRequest } from '../../http/oauth/revoke-endpoint';
import { revokeRoute } from '../../routes/oauth';
import { oauthDeps } from './deps';

export const handler = createOAuthHandler(revokeRoute, (event) => handleRevokeRequest(event, oauthDeps()));
