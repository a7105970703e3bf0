import { rendererAsset } from '../../adapters/docs/reference-assets';
import { notFound } from '../../core/errors';
import { publicHandler } from '../../http/public-handler';
import { docsAssetRoute } from '../../routes/docs';

const year = 365 * 24 * 60 * 60;

export const handler = publicHandler(docsAssetRoute, async ({ params, event }) => {
  const asset = rendererAsset();
  if (params.file !== asset.name) throw notFound('Asset');
  const gzip = /\bgzip\b/.test(event.headers['accept-encoding'] ?? '');
  return {
    response: {
      statusCode: 200,
      headers: {
        'Content-Type': asset.contentType,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': `public, max-age=${year}, immutable`,
        Vary: 'Accept-Encoding',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      },
      body: (gzip ? asset.gzipped : asset.body).toString('base64'),
      isBase64Encoded: true,
    },
  };
});
