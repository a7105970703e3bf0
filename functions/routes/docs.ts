import * as v from 'valibot';
import { defineRoute } from './route';

const tag = 'Reference';

/** The redoc package's self-contained browser bundle, served by the asset route. */
export const rendererBundle = { module: 'redoc', file: 'bundles/redoc.standalone.js' } as const;

/** Both functions read the bundle: the page names it by its content hash, the asset route serves it. */
const rendererFiles = { [rendererBundle.module]: ['package.json', rendererBundle.file] };

export const docsPageRoute = defineRoute({
  operationId: 'getApiReference',
  summary: 'The API reference page',
  description: 'HTML rendering of /v1/openapi.json (Redoc, served from this API: no third-party script). Served without credentials.',
  tag,
  method: 'GET',
  path: '/docs',
  handler: 'meta/docs-page',
  scope: null,
  tableAccess: 'none',
  inOpenApi: false,
  shippedFiles: rendererFiles,
  success: { status: 200, description: 'An HTML page.' },
});

export const docsAssetRoute = defineRoute({
  operationId: 'getApiReferenceAsset',
  summary: 'A script of the API reference page',
  description: 'Content-addressed (the name carries its hash), so it is cached for a year. Served without credentials.',
  tag,
  method: 'GET',
  path: '/docs/assets/{file}',
  handler: 'meta/docs-asset',
  scope: null,
  tableAccess: 'none',
  inOpenApi: false,
  shippedFiles: rendererFiles,
  params: v.object({ file: v.string() }),
  success: { status: 200, description: 'JavaScript.' },
  errors: [404],
});

export const docsRoutes = [docsPageRoute, docsAssetRoute];
