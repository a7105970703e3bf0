import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const honouredOptionsIn = (tsconfigPath: string): ts.CompilerOptions => {
  const { config } = ts.parseConfigFileTextToJson(tsconfigPath, readFileSync(tsconfigPath, 'utf8'));
  const compilerOptions = (config as { compilerOptions?: unknown } | undefined)?.compilerOptions;
  if (typeof compilerOptions !== 'object' || compilerOptions === null) return {};
  const picked = Object.fromEntries(Object.entries(compilerOptions).filter(([name]) => honouredOptionNames.includes(name)));
  return ts.convertCompilerOptionsFromJson(picked, dirname(tsconfigPath)).options;
};

/**
 * The honoured options of the tsconfig.json nearest to the file, up to the root; none when there
 * is none. `extends` is not followed: its base usually lives in node_modules, which is not there.
 */
export const projectCompilerOptions = (root: string, absoluteFile: string): ts.CompilerOptions => {
  for (let dir = dirname(absoluteFile); insideRoot(root, dir); dir = dirname(dir)) {
    const tsconfigPath = join(dir, 'tsconfig.json');
    if (existsSync(tsconfigPath)) return honouredOptionsIn(tsconfigPath);
    if (dir === dirname(dir)) break;
  }
  return {};
};
