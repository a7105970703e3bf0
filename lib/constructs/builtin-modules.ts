import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How a bundle reaches node's built-in modules: through `process.getBuiltinModule`, never through
 * an `import` of the built-in. Node answers `import … from "node:x"` with an ES module facade that
 * reads every export of the module, lazy getters included (node 22's `http.WebSocket` loads undici,
 * nodejs/node#59686); `getBuiltinModule` reads none. Counted with callgrind on node 22
 * (docs/performance.md, eleventh and twelfth passes).
 *
 * Each built-in a function imports is aliased (esbuild `alias`) to a shim written here:
 * - ES module shims, for the built-ins whose module is a plain object: a default export and one
 *   export per name, each marked pure, so a bundle keeps (and reads at import) only the names it
 *   uses. A CommonJS dependency that `require()`s one gets esbuild's namespace of the shim: the same
 *   properties, read when it is required.
 * - CommonJS shims (`module.exports = <the module>`), for `http` and `process`, whose namespace
 *   would read the getters that cost or act (undici; process's stdin, stdout and stderr streams), and
 *   which CommonJS dependencies require(): the module itself, as node's own `require` gives it.
 * Built-ins whose module is a function (assert, events, module, stream) stay imports of the
 * built-in: a dependency that `require()`s one calls or extends it, which no namespace allows.
 */
const esModuleShimmed = [
  'async_hooks',
  'buffer',
  'child_process',
  'console',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'dns/promises',
  'fs',
  'fs/promises',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'querystring',
  'readline',
  'string_decoder',
  'timers',
  'timers/promises',
  'tty',
  'url',
  'util',
  'util/types',
  'worker_threads',
  'zlib',
] as const;

const commonJsShimmed = ['http', 'process'] as const;

/** Every built-in a bundle takes through a shim. */
export const shimmedBuiltins: readonly string[] = [...esModuleShimmed, ...commonJsShimmed];

// Not generated into the project: they follow the node that builds (its export names).
const shimsDir = fileURLToPath(new URL('../../node_modules/.cache/builtin-module-shims/', import.meta.url));

const reservedWords = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'.split(
    ' ',
  ),
);

const isExportableName = (name: string): boolean => /^[A-Za-z_$][\w$]*$/.test(name) && !reservedWords.has(name);

const builtinModule = (name: string): unknown => process.getBuiltinModule(`node:${name}`);

const esModuleShim = (name: string): string => {
  const module = builtinModule(name);
  if (typeof module !== 'object' || module === null)
    throw new Error(`node:${name} is not a plain object here: shim it as CommonJS or not at all`);
  const names = Object.keys(module).filter(isExportableName);
  return [
    `// Written by lib/constructs/builtin-modules.ts on node ${process.version}: node:${name} without its ES module facade.`,
    // Pure: a bundle that imports the module but uses none of it (the use tree-shaken) takes nothing.
    `const $builtin = /* @__PURE__ */ process.getBuiltinModule('node:${name}');`,
    'export default $builtin;',
    ...names.map((exported) => `export const ${exported} = /* @__PURE__ */ (() => $builtin.${exported})();`),
    '',
  ].join('\n');
};

const commonJsShim = (name: string): string =>
  [
    `// Written by lib/constructs/builtin-modules.ts: node:${name} as node's require gives it, without its ES module facade.`,
    `module.exports = process.getBuiltinModule('node:${name}');`,
    '',
  ].join('\n');

/** Writes a shim unless it is already there as it should be; by rename, so a concurrent build never reads half a file. */
const ensureFile = (path: string, text: string): void => {
  try {
    if (readFileSync(path, 'utf8') === text) return;
  } catch {
    // not written yet
  }
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
};

const shimFileOf = (name: string, extension: 'mjs' | 'cjs'): string => join(shimsDir, `${name.replace('/', '-')}.${extension}`);

/**
 * esbuild's aliases for the shims, with and without the `node:` prefix, writing the shims first.
 * An alias also maps the paths under its name, so each built-in subpath of an aliased module
 * (`util/types`, `path/posix`) is aliased too: to its own shim, or to itself.
 */
export const builtinModuleAliases = (): Record<string, string> => {
  mkdirSync(shimsDir, { recursive: true });
  const aliases: Record<string, string> = {};
  const alias = (name: string, target: string) => {
    aliases[name] = target;
    aliases[`node:${name}`] = target;
  };
  for (const name of esModuleShimmed) {
    const file = shimFileOf(name, 'mjs');
    ensureFile(file, esModuleShim(name));
    alias(name, file);
  }
  for (const name of commonJsShimmed) {
    const file = shimFileOf(name, 'cjs');
    ensureFile(file, commonJsShim(name));
    alias(name, file);
  }
  for (const subpath of builtinModules.filter((module) => module.includes('/'))) {
    if (!(subpath in aliases) && shimmedBuiltins.includes(subpath.split('/')[0] as string)) alias(subpath, `node:${subpath}`);
  }
  return aliases;
};
