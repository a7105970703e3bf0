import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResponse } from '../../http/response';
import { stylesheetFile, stylesheetText } from '../../pages/assets/stylesheet';

/**
 * The stylesheet under its content-hashed name, cached for a year (a new version is a new name).
 * No session, no table: a static file.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  const common = {
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Request-Id': event.requestContext.requestId,
  };
  if (event.pathParameters?.file !== stylesheetFile) {
    return {
      statusCode: 404,
      headers: { ...common, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      body: 'Not found',
    };
  }
  return {
    statusCode: 200,
    headers: { ...common, 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' },
    body: stylesheetText,
  };
};
