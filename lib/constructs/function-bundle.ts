import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { builtinModuleAliases } from './builtin-modules';

/**
 * How every function is bundled: ESM for nodejs22.x, minified, the AWS SDK inside, no source map,
 * written as `index.mjs` and the chunks it imports. Code split: what a function reaches only
 * through `import()` (the SDK's SSO, profile and process credential providers and the clients they
 * start, AI providers, KMS) is a chunk of its own, read only if that path runs. The bench
 * (`bench/bundles.ts`) measures bundles built with these same options.
 */
export const functionBuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  minify: true,
  treeShaking: true,
  mainFields: ['module', 'main'],
  splitting: true,
  entryNames: 'index',
  // Flat beside index.mjs: a chunk's import.meta.url names the function's own folder, as index.mjs's does.
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  alias: {
    // Built-ins through process.getBuiltinModule, not node's ES module facades (builtin-modules.ts).
    ...builtinModuleAliases(),
    // ESLint require()s esquery, whose `module` build (picked by mainFields) exports only a default:
    // required, it has no `parse`, and every file the sast analyser lints failed with "….parse is not
    // a function". Its CommonJS build is what ESLint is written against.
    esquery: 'esquery/dist/esquery.min.js',
  },
  // Off unless the context asks (`sourceMapsFromContext`): with `--enable-source-maps` node reads
  // and parses a bundle's whole map while importing it, ~20 ms of every cold start on node 22.
  sourcemap: false,
  // Some dependencies still call require(); an ESM bundle has none unless it is defined (and
  // `import … from 'module'` would build node's facade of it, as the shims avoid).
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  // Pages import their stylesheet and browser script as text (lib/local/text-loader.mjs does the same locally).
  loader: { '.css': 'text', '.client.js': 'text' },
  logLevel: 'warning',
} as const satisfies BuildOptions;

/**
 * The files of a bundle that a cold start reads: index.mjs and the chunks it imports statically,
 * transitively (metafile paths). The other chunks load when an `import()` that needs them runs.
 */
export const filesLoadedAtImport = (metafile: Metafile): string[] => {
  const entry = Object.keys(metafile.outputs).find((path) => path === 'index.mjs' || path.endsWith('/index.mjs'));
  const seen = new Set<string>();
  for (let pending = entry ? [entry] : [], path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
  }
  return [...seen];
};

/** What `-c sourceMaps=true` adds: a map beside each bundle (positions only; no sources inside). */
export const sourceMapBuildOptions = { sourcemap: true, sourcesContent: false } as const satisfies BuildOptions;

/** The variable that makes node read the maps (and map every stack trace); set only with the maps. */
export const sourceMapNodeOptions = '--enable-source-maps';

/**
 * `npx cdk deploy -c sourceMaps=true`: bundles with source maps and node told to use them, so
 * stack traces in the logs name source files and lines, at the cost of reading each map at every
 * cold start (`docs/performance.md`). Off by default: `npm run stack-trace` maps a logged stack
 * offline instead.
 */
export const sourceMapsFromContext = (scope: IConstruct): boolean => {
  const value: unknown = scope.node.tryGetContext('sourceMaps');
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
};

export interface FunctionBundleProps {
  projectRoot: string;
  /** The handler module (absolute path); its `handler` export becomes `index.handler`. */
  entry: string;
  /** Packages left out of the bundle. */
  external: string[];
  /** Packages copied beside the bundle, file patterns per package, from the project's node_modules. */
  shippedModules: Record<string, string[]>;
  /** A source map beside the bundle (`sourceMapsFromContext`). */
  sourceMaps: boolean;
}

/**
 * Writes a function's code into `outputDir` as it is deployed: the bundle (index.mjs and its
 * chunks), and the shipped modules' files in its node_modules. Synchronous (esbuild's build API),
 * as CDK's local bundling asks.
 */
export const writeFunctionBundle = (props: FunctionBundleProps, outputDir: string): void => {
  buildSync({
    ...functionBuildOptions,
    ...(props.sourceMaps ? sourceMapBuildOptions : {}),
    external: props.external,
    absWorkingDir: props.projectRoot,
    entryPoints: [props.entry],
    outdir: outputDir,
  });
  for (const [name, patterns] of Object.entries(props.shippedModules)) {
    const from = join(props.projectRoot, 'node_modules', name);
    const to = join(outputDir, 'node_modules', name);
    for (const file of patterns.flatMap((pattern) => filesMatching(from, pattern))) {
      mkdirSync(dirname(join(to, file)), { recursive: true });
      cpSync(join(from, file), join(to, file), { recursive: true });
    }
  }
};

/**
 * Builds the bundle in this process with esbuild's API: NodejsFunction runs `npx esbuild` once per
 * function, and starting npm took most of a synthesis of ~130 functions. No Docker, no network.
 * The fields are what the asset's cache key is made of, so they name everything the output depends on.
 */
class InProcessEsbuild implements ILocalBundling {
  constructor(readonly props: FunctionBundleProps) {}

  tryBundle(outputDir: string): boolean {
    writeFunctionBundle(this.props, outputDir);
    return true;
  }
}

/** A file or folder of the package, or the files of one folder whose names match `*` (`lib/lib.*.d.ts`). */
const filesMatching = (packageDir: string, pattern: string): string[] => {
  if (!pattern.includes('*')) return [pattern];
  if (dirname(pattern).includes('*')) throw new Error(`shippedModules: only a file name may hold a *, not ${pattern}`);
  const escaped = basename(pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const name = new RegExp(`^${escaped.replaceAll('*', '.*')}$`);
  return readdirSync(join(packageDir, dirname(pattern)))
    .filter((file) => name.test(file))
    .map((file) => join(dirname(pattern), file));
};

/** A function's code asset: the bundle (and its shipped modules), hashed by its output. */
export const functionCode = (props: FunctionBundleProps): Code =>
  Code.fromAsset(props.projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: the local bundling above always succeeds, so Docker is never asked.
      image: DockerImage.fromRegistry('dummy'),
      local: new InProcessEsbuild(props),
    },
  });
