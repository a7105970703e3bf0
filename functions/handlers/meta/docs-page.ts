import { rendererAsset } from '../../adapters/docs/reference-assets';
import { publicHandler } from '../../http/public-handler';
import { type HttpResponse } from '../../http/response';
import { docsPageRoute } from '../../routes/docs';

/**
 * What the renderer needs and nothing more: its script from this origin (no inline script), the
 * document from this origin, inline styles (styled-components writes <style> elements), and a
 * Web Worker built from a blob: URL (its search index).
 */
export const referencePageCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const page = (scriptName: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Project Automation Service · API reference</title>
  </head>
  <body>
    <redoc spec-url="/v1/openapi.json" required-props-first="true" expand-responses="200,201,202" hide-hostname="true"></redoc>
    <script src="/docs/assets/${scriptName}"></script>
  </body>
</html>
`;

let response: HttpResponse | undefined;

export const handler = publicHandler(docsPageRoute, async () => {
  response ??= {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': referencePageCsp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // Short: the page names the renderer by its hash, and a new deployment may bring a new one.
      'Cache-Control': 'public, max-age=300',
    },
    body: page(rendererAsset().name),
  };
  return { response };
});
