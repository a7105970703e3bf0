import { createOAuthHandler } from '../../http/oauth/oauth-handler';
import { handleTokenRequest } from '../../http/oauth/token-endpoint';
import { tokenRoute } from '../../routes/oauth';
import { oauthDeps } from './deps';

export const handler = createOAuthHandler(tokenRoute, (event) => handleTokenRequest(event, oauthDeps()));
