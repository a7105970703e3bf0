import { publicHandler } from '../../http/public-handler';
import { jsonResponse, type HttpResponse } from '../../http/response';
import { buildOpenApiDocument } from '../../openapi/build-document';
import { routes } from '../../routes';
import { openApiRoute } from '../../routes/meta';

let document: HttpResponse | undefined;

export const handler = publicHandler(openApiRoute, async () => {
  document ??= jsonResponse(200, buildOpenApiDocument(routes));
  return { response: document };
});
