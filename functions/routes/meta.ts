import * as v from 'valibot';
import { defineRoute, type ResponseSchemas } from './route';

export const openApiRoute = defineRoute({
  operationId: 'getOpenApiDocument',
  summary: 'This API described in OpenAPI 3.1',
  description: 'Served without credentials.',
  tag: 'Meta',
  method: 'GET',
  path: '/v1/openapi.json',
  handler: 'meta/openapi',
  scope: null,
  tableAccess: 'none',
  success: { status: 200, description: 'The OpenAPI document itself (not wrapped in `data`).' },
});

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const metaResponses = {
  getOpenApiDocument: v.record(v.string(), v.unknown()),
} satisfies ResponseSchemas;
