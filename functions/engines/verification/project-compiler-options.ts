import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { insideRoot } from './inside-root';

/**
 * Options of the project's tsconfig.json that the isolated check honours, so that a lax project
 * is not held to strict mode nor the reverse (narrowing differs). Left out: options whose checks
 * mostly fire on the types the check cannot see (noUncheckedIndexedAccess over an unseen key
 * type, noImplicitReturns after a call of an unseen function...). typescript-checks.ts drops or
 * turns off what `strict` would report about unseen types.
 */
const honouredOptionNames = [
  'target',
  'strict',
  'noImplicitAny',
  'noImplicitThis',
  'strictNullChecks',
  'strictFunctionTypes',
  'strictBindCallApply',
  'strictPropertyInitialization',
  'strictBuiltinIteratorReturn',
  'alwaysStrict',
  'experimentalDecorators',
  'useDefineForClassFields',
  'noImplicitOverride',
  'noUnusedLocals',
  'noUnusedParameters',
  'allowUnreachableCode',
  'allowUnusedLabels',
];

/** Every base of https://github.com/tsconfig/bases sets `strict`; no other package base is readable here. */
const packageBaseOptions = (base: string): ts.CompilerOptions => (base.startsWith('@tsconfig/') ? { strict: true } : {});

const maxExtendsDepth = 5;

/** The text of a regular file, or undefined: a tsconfig.json that is a folder or cannot be read is no configuration. */
const fileText = (path: string): string | undefined => {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
};

/** The honoured options of one tsconfig file, over those of the bases it extends that can be read. */
const honouredOptionsIn = (root: string, tsconfigPath: string, text: string, depth = 0): ts.CompilerOptions => {
  const { config } = ts.parseConfigFileTextToJson(tsconfigPath, text);
  const { compilerOptions, extends: extended } = (config ?? {}) as { compilerOptions?: unknown; extends?: unknown };
  const bases = (Array.isArray(extended) ? extended : [extended]).filter((base): base is string => typeof base === 'string');
  let options: ts.CompilerOptions = {};
  for (const base of bases) {
    if (!base.startsWith('.')) {
      options = { ...options, ...packageBaseOptions(base) };
      continue;
    }
    const basePath = resolve(dirname(tsconfigPath), base.endsWith('.json') ? base : `${base}.json`);
    const baseText = depth < maxExtendsDepth && insideRoot(root, basePath) ? fileText(basePath) : undefined;
    if (baseText !== undefined) options = { ...options, ...honouredOptionsIn(root, basePath, baseText, depth + 1) };
  }
  if (typeof compilerOptions !== 'object' || compilerOptions === null) return options;
  const picked = Object.fromEntries(Object.entries(compilerOptions).filter(([name]) => honouredOptionNames.includes(name)));
  return { ...options, ...ts.convertCompilerOptionsFromJson(picked, dirname(tsconfigPath)).options };
};

/**
 * The honoured options of the tsconfig.json nearest to the file, up to the root; none when there
 * is none. Bases it `extends` are followed within the repository; packages (node_modules is not
 * there) are not, except that @tsconfig/* bases are known to be strict.
 */
export const projectCompilerOptions = (root: string, absoluteFile: string): ts.CompilerOptions => {
  for (let dir = dirname(absoluteFile); insideRoot(root, dir); dir = dirname(dir)) {
    const tsconfigPath = join(dir, 'tsconfig.json');
    const text = fileText(tsconfigPath);
    if (text !== undefined) return honouredOptionsIn(root, tsconfigPath, text);
    if (dir === dirname(dir)) break;
  }
  return {};
};
