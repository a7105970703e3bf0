import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { lineAt, outcome, skipped, type CheckResult } from './check-result';
import { libSourceFile, missingLibFiles, rootLibFile } from './typescript-libs';
import { isAboutUnseenTypes } from './unseen-types';

export const javaScriptExtensions = ['.js', '.jsx', '.mjs', '.cjs'];
export const typeScriptExtensions = ['.ts', '.tsx', '.mts', '.cts'];

/** Type-checking a larger file alone is slow and the file is most likely generated. */
export const maxTypeCheckedBytes = 1_000_000;

const problemsOf = (diagnostics: readonly ts.Diagnostic[], text: string): CheckResult['problems'] =>
  diagnostics.map((diagnostic) => ({
    line: diagnostic.start === undefined ? null : lineAt(text, diagnostic.start),
    message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
  }));

const declarationFileName = /\.d\.([cm]?ts)$/;

/** transpileModule emits, which it cannot do for a declaration file: parse it as the source it looks like. */
const transpilableName = (fileName: string): string => fileName.replace(declarationFileName, '.$1');

/** Parse errors only, for TypeScript and JavaScript alike (and JSX); nothing is resolved. */
export const checkSyntax = (fileName: string, text: string): CheckResult => {
  let diagnostics: readonly ts.Diagnostic[];
  try {
    diagnostics =
      ts.transpileModule(text, {
        fileName: transpilableName(fileName),
        reportDiagnostics: true,
        compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.Preserve, jsx: ts.JsxEmit.Preserve, allowJs: true },
      }).diagnostics ?? [];
  } catch (error) {
    return skipped('syntax', `TypeScript failed on this file: ${(error as Error).message}`);
  }
  // Diagnostics without a file are about the options above, not about the file.
  return outcome(
    'syntax',
    problemsOf(
      diagnostics.filter((d) => d.file),
      text,
    ),
  );
};

/**
 * The file is checked alone: its imports are not resolved and the project's @types packages are
 * not loaded. These diagnostics only say so, nothing about the file itself, and are dropped.
 */
const ignoredCodes = new Set([
  2307, // Cannot find module 'x' or its corresponding type declarations.
  2792, // Cannot find module 'x'. Did you mean to set the 'moduleResolution' option...
  7016, // Could not find a declaration file for module 'x'.
  2578, // Unused '@ts-expect-error' directive: the error it expects may come from an unseen type.
  2664, // Invalid module name in augmentation, module 'x' cannot be found.
  2875, // This JSX tag requires the module path 'react/jsx-runtime' to exist...
  7026, // JSX element implicitly has type 'any' because no interface 'JSX.IntrinsicElements' exists (@types/react).
  2580,
  2591, // Cannot find name 'process' | 'require' | 'Buffer' | 'module'. Do you need to install type definitions for node?
  2582,
  2593, // Cannot find name 'describe' | 'it' | 'test'. Do you need to install type definitions for a test runner?
  2581,
  2592, // Cannot find name '$'. Do you need to install type definitions for jQuery?
  2867,
  2868, // Cannot find name 'Bun'. Do you need to install type definitions for Bun?
  // '...' implicitly has an 'any' type: callbacks passed to imported functions have no contextual
  // type here. (Turning noImplicitAny off instead would type `[]` as `never[]` in strict mode.)
  7005,
  7006,
  7008,
  7010,
  7011,
  7018,
  7019,
  7022,
  7023,
  7024,
  7031,
  7034,
  2683, // 'this' implicitly has type 'any' because it does not have a type annotation.
]);

/** Cannot find name / name (did you mean...) / namespace. */
const cannotFindNameCodes = new Set([2304, 2552, 2503]);

/**
 * Globals that @types/node, the test runners' types and @types/react declare: TypeScript does not
 * always use the "install type definitions" diagnostics above for them (`Cannot find name 'Buffer'.
 * Did you mean 'toBuffer'?`). Names imported from a module that is not resolved need no entry:
 * TypeScript never reports them.
 */
const ambientGlobals = new Set([
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  '__dirname',
  '__filename',
  'global',
  'NodeJS',
  'setImmediate',
  'clearImmediate',
  'describe',
  'it',
  'test',
  'expect',
  'jest',
  'beforeAll',
  'afterAll',
  'beforeEach',
  'afterEach',
  'JSX',
  'React',
]);

/** `import.meta.dirname` and the like: @types/node (or vite/client...) add them to ImportMeta. */
const isImportMetaMember = (diagnostic: ts.Diagnostic, text: string): boolean =>
  (diagnostic.code === 2339 || diagnostic.code === 2551) &&
  /import\s*\.\s*meta\s*\.\s*$/.test(text.slice(Math.max(0, (diagnostic.start ?? 0) - 40), diagnostic.start));

const isAboutTheFile = (diagnostic: ts.Diagnostic, text: string): boolean => {
  if (ignoredCodes.has(diagnostic.code) || isImportMetaMember(diagnostic, text)) return false;
  if (cannotFindNameCodes.has(diagnostic.code) && diagnostic.start !== undefined) {
    return !ambientGlobals.has(text.slice(diagnostic.start, diagnostic.start + (diagnostic.length ?? 0)));
  }
  return true;
};

/** Unless the project's tsconfig.json says otherwise (TypeScript's own default target is ES5). */
const defaultOptions: ts.CompilerOptions = { target: ts.ScriptTarget.ESNext };

/** Ours, over the project's: what makes the file checkable on its own. */
const isolatedFileOptions: ts.CompilerOptions = {
  noEmit: true,
  noResolve: true,
  types: [],
  lib: [rootLibFile],
  // Only the changed file's diagnostics are asked for, so lib files are never checked anyway;
  // skipLibCheck would also silence a changed .d.ts.
  skipDefaultLibCheck: true,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // A file without imports is a module too: no clashes with the DOM's globals (`name`, `status`...).
  moduleDetection: ts.ModuleDetectionKind.Force,
  jsx: ts.JsxEmit.Preserve,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  // A caught error narrowed by an imported class would stay `unknown`.
  useUnknownInCatchVariables: false,
};

/**
 * Semantic diagnostics of one TypeScript file, against TypeScript's own lib files in `libDir`.
 * Skipped, not failed, when those are missing (a bundle that did not carry them) or unusable.
 */
export const checkTypes = (fileName: string, text: string, projectOptions: ts.CompilerOptions, libDir: string | undefined): CheckResult => {
  if (!libDir) return skipped('types', 'TypeScript lib files are not available in this runtime');
  const missing = missingLibFiles(libDir);
  if (missing.length > 0) return skipped('types', `TypeScript lib files missing from ${libDir}: ${missing.join(', ')}`);
  if (Buffer.byteLength(text) > maxTypeCheckedBytes) return skipped('types', `larger than ${maxTypeCheckedBytes} bytes`);

  // Serves the changed file and the lib files, nothing else.
  const isLibFile = (name: string): boolean => dirname(name) === libDir;
  const host: ts.CompilerHost = {
    getSourceFile: (name, languageVersion) => {
      if (name === fileName) return ts.createSourceFile(name, text, languageVersion, true);
      return isLibFile(name) ? libSourceFile(name, languageVersion) : undefined;
    },
    getDefaultLibFileName: () => join(libDir, rootLibFile),
    getDefaultLibLocation: () => libDir,
    writeFile: () => undefined,
    getCurrentDirectory: () => dirname(fileName),
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === fileName || (isLibFile(name) && existsSync(name)),
    readFile: (name) => (name === fileName ? text : isLibFile(name) && existsSync(name) ? readFileSync(name, 'utf8') : undefined),
  };
  const options = { ...defaultOptions, ...projectOptions, ...isolatedFileOptions };
  // A declaration file without imports declares globals: it must stay a script.
  if (declarationFileName.test(fileName)) options.moduleDetection = ts.ModuleDetectionKind.Auto;
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  const setupProblem = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()][0];
  if (setupProblem) return skipped('types', `cannot type-check: ${ts.flattenDiagnosticMessageText(setupProblem.messageText, ' ')}`);

  const sourceFile = program.getSourceFile(fileName);
  if (!sourceFile) return skipped('types', 'TypeScript did not load the file');
  const checker = program.getTypeChecker();
  const aboutTheFile = program
    .getSemanticDiagnostics(sourceFile)
    .filter((diagnostic) => isAboutTheFile(diagnostic, text) && !isAboutUnseenTypes(diagnostic, sourceFile, checker));
  return outcome('types', problemsOf(aboutTheFile, text));
};
