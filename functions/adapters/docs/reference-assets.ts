import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { rendererBundle } from '../../routes/docs';

export interface StaticAsset {
  /** Content-addressed file name: `redoc.<hash>.js`. */
  name: string;
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
}

let renderer: StaticAsset | undefined;

/**
 * The reference page's renderer: the redoc package's standalone bundle, read from node_modules
 * (locally) or from the copy shipped beside the function's bundle (in AWS), once per instance.
 * Its source-map comment is dropped: the map is not served.
 */
export const rendererAsset = (): StaticAsset => {
  if (!renderer) {
    const path = createRequire(import.meta.url).resolve(`${rendererBundle.module}/${rendererBundle.file}`);
    const text = readFileSync(path, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    const body = Buffer.from(text, 'utf8');
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    renderer = { name: `redoc.${hash}.js`, contentType: 'text/javascript; charset=utf-8', body, gzipped: gzipSync(body, { level: 9 }) };
  }
  return renderer;
};
