import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { fallbackHandler, routeTable } from '../functions/routes/index';
import { filesLoadedAtImport, functionBuildOptions } from '../lib/constructs/function-bundle';
import { firstRequestEvent } from './first-request-event';

/** Building every function as the CDK stack does (NodejsFunction's esbuild settings). */

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The stack's bundling options (lib/constructs/function-bundle.ts): no source map, as deployed by default. */
export const cdkBuildOptions = {
  ...functionBuildOptions,
  // AWS SDK bundled, as the stack's functions have it.
  external: [],
  metafile: true,
} as const satisfies BuildOptions;

/**
 * The bundling this bench (and the stack) used until the eleventh pass: one ESM file, built-ins
 * imported as modules. The DynamoDB-only baseline is also built this way, as the issue measured it,
 * so that what the stack's bundling saves shows beside the ratios to a baseline bundled alike.
 */
export const oneFileBuildOptions = { splitting: false, alias: {} } as const satisfies BuildOptions;

export interface BundleTarget {
  /** The handler name of the route table (`projects/get`), or `baseline`. */
  name: string;
  entry: string;
  /** The routes this function serves, for the report. */
  serves: string;
  /** The description of (one of) its functions in the stack: how its environment is found. */
  functionDescription?: string;
  /**
   * Whether the size and init targets hold for it: every function that serves `/v1` or `/oauth`
   * (and the fallback). Dashboard pages and the `/docs` reference are measured and reported only.
   */
  held?: boolean;
  /** The first request the cold-init probe sends its handler (`first-request-event.ts`). */
  event?: unknown;
}

export interface BuiltBundle extends BundleTarget {
  /** `index.mjs`, the module Lambda imports. */
  file: string;
  /** Every file of the bundle (index.mjs and its chunks; no map): what is deployed. */
  bytes: number;
  /** index.mjs and the chunks it imports statically: what a cold start reads and compiles. */
  loadedBytes: number;
  /** Those files, as the metafile names them. */
  loadedFiles: string[];
  metafile: Metafile;
}

export interface InputShare {
  path: string;
  bytes: number;
}

export const baselineTarget: BundleTarget = {
  name: 'baseline',
  entry: fileURLToPath(new URL('./baseline-handler.ts', import.meta.url)),
  serves: 'DynamoDBDocumentClient.from(new DynamoDBClient({})) only',
  event: firstRequestEvent('GET', '/'),
};

const fallbackDescription = '$default: 404 or 405 in the service envelope';

const heldPaths = /^\/(v1|oauth)(\/|$)/;

/** Every function of the stacks: each handler of the route table (API, OAuth, dashboard, docs), plus the fallback. */
export const functionTargets = (): BundleTarget[] => {
  const served = new Map<string, { method: string; path: string }[]>();
  for (const route of routeTable)
    served.set(route.handler, [...(served.get(route.handler) ?? []), { method: route.method, path: route.path }]);
  return [
    ...[...served].map(([name, routes]) => ({
      name,
      entry: join(projectRoot, 'functions', 'handlers', `${name}.ts`),
      serves: routes.map((route) => `${route.method} ${route.path}`).join(', '),
      functionDescription: `${routes[0]?.method} ${routes[0]?.path}`,
      held: routes.some((route) => heldPaths.test(route.path)),
      event: firstRequestEvent(routes[0]?.method ?? 'GET', routes[0]?.path ?? '/'),
    })),
    {
      name: fallbackHandler,
      entry: join(projectRoot, 'functions', 'handlers', `${fallbackHandler}.ts`),
      serves: '$default',
      functionDescription: fallbackDescription,
      held: true,
      event: firstRequestEvent('GET', '/v1/no-such-route'),
    },
  ];
};

/**
 * Every bundle in a folder whose path is as long as every other's, as on Lambda (each function is
 * /var/task/index.mjs). The length of the path alone moved an import's count by up to ~4 %
 * (callgrind: the extra was TurboFan compiling, and `String.prototype.charCodeAt`, as a longer path
 * makes code that walks it hot sooner). Named by the function's name, folders
 * would have given `baseline` the shortest path and a long-named function like
 * `webhooks/deliveries-redeliver` the longest.
 */
const folderNameOf = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 12);

/** `extra`: options over the stack's (`sourceMapBuildOptions`, as `-c sourceMaps=true` deploys; `oneFileBuildOptions`). */
export const buildBundle = async (
  target: BundleTarget,
  outDir: string,
  extra: Pick<BuildOptions, 'sourcemap' | 'sourcesContent' | 'splitting' | 'alias'> = {},
): Promise<BuiltBundle> => {
  const dir = join(outDir, folderNameOf(target.name));
  const { metafile } = await build({
    ...cdkBuildOptions,
    ...extra,
    absWorkingDir: projectRoot,
    entryPoints: [target.entry],
    outdir: dir,
  });
  const code = Object.keys(metafile.outputs).filter((path) => !path.endsWith('.map'));
  // Every chunk an import() loads is an entry point too: the function's own is index.mjs.
  const entry = code.find((path) => path.endsWith('/index.mjs'));
  if (!entry) throw new Error(`esbuild wrote no output for ${target.name}`);
  const bytesOf = (paths: readonly string[]) => paths.reduce((sum, path) => sum + (metafile.outputs[path]?.bytes ?? 0), 0);
  const loadedFiles = filesLoadedAtImport(metafile);
  return {
    ...target,
    file: join(projectRoot, entry),
    bytes: bytesOf(code),
    loadedBytes: bytesOf(loadedFiles),
    loadedFiles,
    metafile,
  };
};

const inputsOf = (bundle: BuiltBundle): InputShare[] =>
  Object.values(bundle.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).map(([path, input]) => ({ path, bytes: input.bytesInOutput })),
  );

/** The `n` source files that put the most bytes into the bundle. */
export const largestInputs = (bundle: BuiltBundle, n: number): InputShare[] =>
  inputsOf(bundle)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, n);

/** `@scope/name` or `name` of a path inside node_modules; the project's own code otherwise. */
const packageOf = (path: string): string => {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return `(project) ${path.split('/').slice(0, 2).join('/')}`;
  return /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path.slice(at))?.[1] ?? path;
};

/** Bytes in the bundle per npm package (or top-level project folder), largest first. */
export const packageShares = (bundle: BuiltBundle, n: number): InputShare[] => {
  const totals = new Map<string, number>();
  for (const input of inputsOf(bundle)) totals.set(packageOf(input.path), (totals.get(packageOf(input.path)) ?? 0) + input.bytes);
  return [...totals]
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, n);
};

/** Packages in `bundle` that the baseline bundle does not contain at all. */
export const packagesBeyond = (bundle: BuiltBundle, baseline: BuiltBundle): InputShare[] => {
  const inBaseline = new Set(packageShares(baseline, Number.MAX_SAFE_INTEGER).map((share) => share.path));
  return packageShares(bundle, Number.MAX_SAFE_INTEGER).filter((share) => !inBaseline.has(share.path));
};
