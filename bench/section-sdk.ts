import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { type Figure, fixed, heading, printTable, ratio } from './report';
import { round } from './stats';

/**
 * Section 7: the TypeScript SDK as a browser app ships it: its entry bundled with everything it
 * imports (openapi-fetch included), minified, for the browser platform (a Node built-in would make
 * the build fail). Beside it, openapi-fetch alone, the library it is built on, and the reference
 * page's renderer as /docs serves it.
 */

const sdkEntry = fileURLToPath(new URL('../clients/typescript/src/index.ts', import.meta.url));

interface Size {
  bytes: number;
  gzipBytes: number;
}

const browserBundle = async (stdin: string): Promise<Size & { inputs: Record<string, number> }> => {
  const result = await build({
    stdin: { contents: stdin, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    // The SDK's own source, as a bundler of a project that installed it from the workspace reads it.
    conditions: ['source'],
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs: Record<string, number> = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'the SDK itself';
      inputs[owner] = (inputs[owner] ?? 0) + input.bytesInOutput;
    }
  }
  return { bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, inputs };
};

export interface SdkSection {
  sdk: Size;
  openapiFetchAlone: Size;
  inputs: Record<string, number>;
  renderer: Size;
  figures: Figure[];
}

const kb = (bytes: number) => round(bytes / 1024, 1);

export const benchSdk = async (): Promise<SdkSection> => {
  heading('7. The TypeScript SDK: size in a browser bundle');
  const sdk = await browserBundle(`export * from ${JSON.stringify(sdkEntry)};`);
  const openapiFetchAlone = await browserBundle(`export { default } from 'openapi-fetch';`);
  const { rendererAsset } = await import('../functions/adapters/docs/reference-assets');
  const asset = rendererAsset();
  const renderer = { bytes: asset.body.length, gzipBytes: asset.gzipped.length };
  printTable(
    'Minified ESM for the browser (esbuild), every import included',
    [{ header: 'Bundle' }, { header: 'KB' }, { header: 'KB gzip' }, { header: '× openapi-fetch (gzip)' }],
    [
      [
        'SDK (createClient, errors, pagination, retries, OAuth, webhooks)',
        fixed(kb(sdk.bytes)),
        fixed(kb(sdk.gzipBytes)),
        ratio(sdk.gzipBytes / openapiFetchAlone.gzipBytes),
      ],
      ['openapi-fetch alone', fixed(kb(openapiFetchAlone.bytes)), fixed(kb(openapiFetchAlone.gzipBytes)), ratio(1)],
      ['Reference page renderer (/docs/assets, Redoc)', fixed(kb(renderer.bytes)), fixed(kb(renderer.gzipBytes)), '—'],
    ],
    [
      `Of the SDK bundle: ${Object.entries(sdk.inputs)
        .sort((a, b) => b[1] - a[1])
        .map(([name, bytes]) => `${name} ${fixed(kb(bytes))} KB`)
        .join(', ')} (before gzip).`,
      'The generated types cost nothing at run time: only the event type list is a value.',
    ],
  );
  return {
    sdk,
    openapiFetchAlone,
    inputs: sdk.inputs,
    renderer,
    figures: [
      { section: 'sdk', name: 'SDK, minified browser bundle (gzip)', value: `${fixed(kb(sdk.bytes))} KB (${fixed(kb(sdk.gzipBytes))} KB)` },
      { section: 'sdk', name: 'SDK ÷ openapi-fetch alone (gzip)', value: ratio(sdk.gzipBytes / openapiFetchAlone.gzipBytes) },
      {
        section: 'sdk',
        name: 'Reference page renderer (gzip)',
        value: `${fixed(kb(renderer.bytes))} KB (${fixed(kb(renderer.gzipBytes))} KB)`,
      },
    ],
  };
};
