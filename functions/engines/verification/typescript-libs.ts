import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** ESNext with the DOM: declares console, fetch, URL, timers... which Node code uses too. */
export const rootLibFile = 'lib.esnext.full.d.ts';

/** The lib files next to the installed TypeScript, or undefined when it was bundled without them. */
export const installedTypeScriptLibDir = (): string | undefined => {
  try {
    const libDir = dirname(createRequire(import.meta.url).resolve('typescript'));
    return existsSync(join(libDir, rootLibFile)) ? libDir : undefined;
  } catch {
    return undefined;
  }
};

/**
 * `rootLibFile` and every lib file it references (`/// <reference lib="..." />`), transitively:
 * what a bundle that type-checks must carry. Missing files are listed too; see `missingLibFiles`.
 */
export const requiredTypeScriptLibFiles = (libDir: string): string[] => {
  const seen = new Set<string>();
  const visit = (fileName: string): void => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const path = join(libDir, fileName);
    if (!existsSync(path)) return;
    for (const match of readFileSync(path, 'utf8').matchAll(/\/\/\/\s*<reference\s+lib\s*=\s*"([^"]+)"/g)) {
      visit(`lib.${match[1]?.toLowerCase()}.d.ts`);
    }
  };
  visit(rootLibFile);
  return [...seen].sort();
};

const missingByDir = new Map<string, string[]>();

export const missingLibFiles = (libDir: string): string[] => {
  let missing = missingByDir.get(libDir);
  if (!missing) {
    missing = requiredTypeScriptLibFiles(libDir).filter((fileName) => !existsSync(join(libDir, fileName)));
    missingByDir.set(libDir, missing);
  }
  return missing;
};

/** Parsed lib files outlive a check: parsing lib.dom.d.ts alone takes a few hundred milliseconds. */
const parsedLibs = new Map<string, ts.SourceFile>();

export const libSourceFile = (path: string, languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions): ts.SourceFile | undefined => {
  const version = typeof languageVersion === 'object' ? languageVersion.languageVersion : languageVersion;
  const key = `${version}:${path}`;
  let sourceFile = parsedLibs.get(key);
  if (!sourceFile && existsSync(path)) {
    sourceFile = ts.createSourceFile(path, readFileSync(path, 'utf8'), languageVersion);
    parsedLibs.set(key, sourceFile);
  }
  return sourceFile;
};
