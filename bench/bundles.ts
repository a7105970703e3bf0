import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { fallbackHandler, routeTable } from '../functions/routes/index';
import { functionBuildOptions } from '../lib/constructs/function-bundle';
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
  file: string;
  bytes: number;
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

const fileNameOf = (name: string): string => `${name.replace(/[^A-Za-z0-9]+/g, '-')}.mjs`;

/** `extra`: options over the stack's (`sourceMapBuildOptions`, as `-c sourceMaps=true` deploys). */
export const buildBundle = async (
  target: BundleTarget,
  outDir: string,
  extra: Pick<BuildOptions, 'sourcemap' | 'sourcesContent'> = {},
): Promise<BuiltBundle> => {
  const file = join(outDir, fileNameOf(target.name));
  const { metafile } = await build({
    ...cdkBuildOptions,
    ...extra,
    absWorkingDir: projectRoot,
    entryPoints: [target.entry],
    outfile: file,
  });
  // The .mjs (the map, when asked for, is an output without an entry point).
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined) ?? Object.values(metafile.outputs)[0];
  if (!output) throw new Error(`esbuild wrote no output for ${target.name}`);
  return { ...target, file, bytes: output.bytes, metafile };
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
