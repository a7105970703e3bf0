import { join } from 'node:path';
import type { SourceMapPayload } from 'node:module';
import { App } from 'aws-cdk-lib';
import { build } from 'esbuild';
import { buildApp } from '../app';
import { functionBuildOptions, sourceMapBuildOptions } from '../constructs/function-bundle';
import { ServiceFunction } from '../constructs/service-function';

/** The handlers of the app's functions (`projects/get`, `workers/dispatch`) and what each is built from. */
export const functionBundles = (projectRoot: string): Map<string, ServiceFunction['bundle']> => {
  // Bundling skipped: only the constructs are wanted, not their assets.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  buildApp(app);
  const handlersDir = join(projectRoot, 'functions', 'handlers') + '/';
  const bundles = new Map<string, ServiceFunction['bundle']>();
  for (const construct of app.node.findAll()) {
    if (construct instanceof ServiceFunction)
      bundles.set(construct.bundle.entry.slice(handlersDir.length).replace(/\.ts$/, ''), construct.bundle);
  }
  return bundles;
};

/**
 * The source map of a function's bundle, built again from the sources with the stack's options: the
 * code esbuild writes is the same with or without a map (the map adds one comment at the end), so
 * the map fits the deployed bundle when the sources are those that were deployed. Nothing is written.
 */
export const rebuiltSourceMap = async (projectRoot: string, bundle: ServiceFunction['bundle']): Promise<SourceMapPayload> => {
  const result = await build({
    ...functionBuildOptions,
    ...sourceMapBuildOptions,
    external: bundle.external,
    absWorkingDir: projectRoot,
    entryPoints: [bundle.entry],
    // Beside the project's folders, so the map names sources as `functions/…` and `node_modules/…`.
    outfile: join(projectRoot, 'index.mjs'),
    write: false,
  });
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'));
  if (!map) throw new Error(`esbuild wrote no source map for ${bundle.entry}`);
  return JSON.parse(map.text) as SourceMapPayload;
};
