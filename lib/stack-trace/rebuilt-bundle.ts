import { basename, join } from 'node:path';
import type { SourceMapPayload } from 'node:module';
import { App } from 'aws-cdk-lib';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { buildApp } from '../app';
import { functionBuildOptions, sourceMapBuildOptions } from '../constructs/function-bundle';
import { ServiceFunction } from '../constructs/service-function';

/** Every function of the app by the handler it runs (`projects/get`, `workers/dispatch`): what it is built from and how it is described. */
export const appFunctions = (projectRoot: string): Map<string, ServiceFunction> => {
  // Bundling skipped: only the constructs are wanted, not their assets.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  buildApp(app);
  const handlersDir = join(projectRoot, 'functions', 'handlers') + '/';
  return new Map(
    app.node
      .findAll()
      .filter((construct): construct is ServiceFunction => construct instanceof ServiceFunction)
      .map((fn) => [fn.bundle.entry.slice(handlersDir.length).replace(/\.ts$/, ''), fn]),
  );
};

/** The handlers of the app's functions and what each is built from. */
export const functionBundles = (projectRoot: string): Map<string, ServiceFunction['bundle']> =>
  new Map([...appFunctions(projectRoot)].map(([handler, fn]) => [handler, fn.bundle]));

/** A bundle's code files (no maps) by name, each known by the source modules it holds: one set per file, none shared. */
const filesBySources = (metafile: Metafile): Map<string, string> =>
  new Map(
    Object.entries(metafile.outputs)
      .filter(([path]) => !path.endsWith('.map'))
      .map(([path, output]) => [Object.keys(output.inputs).sort().join('\n'), basename(path)]),
  );

/**
 * The source maps of a function's bundle, by the name of each file as deployed (`index.mjs`,
 * `chunk-5VZPIZYW.mjs`), built again from the sources with the stack's options. The code esbuild
 * writes is the same with or without a map (a map adds one comment to each file), but a chunk's
 * name holds a hash of its file, comment included: so the bundle is built both ways, and each map
 * goes to the deployed file that holds the same source modules. Nothing is written.
 */
export const rebuiltSourceMaps = async (projectRoot: string, bundle: ServiceFunction['bundle']): Promise<Map<string, SourceMapPayload>> => {
  const buildWith = (extra: BuildOptions) =>
    build({
      ...functionBuildOptions,
      ...extra,
      external: bundle.external,
      absWorkingDir: projectRoot,
      entryPoints: [bundle.entry],
      // Beside the project's folders, so the maps name sources as `functions/…` and `node_modules/…`.
      outdir: projectRoot,
      metafile: true,
      write: false,
    });
  const [deployed, mapped] = await Promise.all([buildWith({}), buildWith(sourceMapBuildOptions)]);
  const deployedNames = filesBySources(deployed.metafile);
  const maps = new Map<string, SourceMapPayload>();
  for (const [sources, mappedName] of filesBySources(mapped.metafile)) {
    const map = mapped.outputFiles.find((file) => basename(file.path) === `${mappedName}.map`);
    const deployedName = deployedNames.get(sources);
    if (map && deployedName) maps.set(deployedName, JSON.parse(map.text) as SourceMapPayload);
  }
  if (!maps.has('index.mjs')) throw new Error(`esbuild wrote no source map for ${bundle.entry}`);
  return maps;
};
