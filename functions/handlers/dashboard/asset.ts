import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResponse } from '../../http/response';
import { scriptFile, scriptText } from '../../pages/assets/script';
import { stylesheetFile, stylesheetText } from '../../pages/assets/stylesheet';

const assets = new Map([
  [stylesheetFile, { type: 'text/css; charset=utf-8', body: stylesheetText }],
  [scriptFile, { type: 'text/javascript; charset=utf-8', body: scriptText }],
]);

/**
 * The stylesheet and the script under their content-hashed names, cached for a year (a new
 * version is a new name). No session, no table: static files.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const common = {
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Request-Id': event.requestContext.requestId,
  };
  const asset = assets.get(event.pathParameters?.file ?? '');
  if (!asset) {
    return {
      statusCode: 404,
      headers: { ...common, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      body: 'Not found',
    };
  }
  return {
    statusCode: 200,
    headers: { ...common, 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=31536000, immutable' },
    body: asset.body,
  };
};
