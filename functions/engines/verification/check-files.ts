import { lstat, readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import type { VerificationReport } from '../../core/workflows/stage-data';
import { skipped, type CheckResult } from './check-result';
import { checkJson, checkYaml } from './data-checks';
import { insideRoot } from './inside-root';
import { projectCompilerOptions } from './project-compiler-options';
import { checkSyntax, checkTypes, javaScriptExtensions, typeScriptExtensions } from './typescript-checks';
import { installedTypeScriptLibDir } from './typescript-libs';

export interface VerifyOptions {
  /**
   * Where TypeScript's lib files (lib.esnext.full.d.ts and those it references) are; by default
   * next to the installed `typescript` package. Type checks are skipped when there are none.
   */
  typeScriptLibDir?: string;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const checksOf = async (root: string, path: string, text: string, libDir: string | undefined): Promise<CheckResult[]> => {
  const extension = extname(path).toLowerCase();
  const absolute = resolve(root, path);
  if (typeScriptExtensions.includes(extension)) {
    const syntax = checkSyntax(absolute, text);
    const types =
      syntax.status === 'failed'
        ? skipped('types', 'not run: the file has syntax errors')
        : checkTypes(absolute, text, projectCompilerOptions(root, absolute), libDir);
    return [syntax, types];
  }
  if (javaScriptExtensions.includes(extension)) return [checkSyntax(absolute, text)];
  if (extension === '.json' || extension === '.jsonc') return [checkJson(path, text)];
  if (extension === '.yml' || extension === '.yaml') return [await checkYaml(text)];
  if (extension === '.py') return [skipped('syntax', 'no Python checker in this runtime')];
  return [skipped('syntax', 'no checker for this file type')];
};

/** The checks of one changed path, or none when the file was deleted. */
const checkPath = async (root: string, path: string, libDir: string | undefined): Promise<CheckResult[]> => {
  const absolute = resolve(root, path);
  if (!insideRoot(root, absolute))
    return [
      {
        name: 'path',
        status: 'failed',
        message: 'outside the repository',
        problems: [{ line: null, message: 'the path leads outside the repository' }],
      },
    ];
  const stats = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stats) return [];
  if (!stats.isFile()) return [skipped('syntax', 'not a regular file')];
  return checksOf(root, path, await readFile(absolute, 'utf8'), libDir);
};

/**
 * Checks each changed file that still exists under `root` (paths relative to it, `/`-separated):
 * syntax of TypeScript and JavaScript, types of TypeScript files taken one by one, JSON and YAML
 * well-formedness. What cannot be checked here is listed as skipped, with why. Ordered by path,
 * then check name, so the same tree always gives the same report.
 */
export const verifyChangedFiles = async (
  root: string,
  changedPaths: string[],
  options: VerifyOptions = {},
): Promise<VerificationReport> => {
  const rootDir = resolve(root);
  const libDir = options.typeScriptLibDir ? resolve(options.typeScriptLibDir) : installedTypeScriptLibDir();
  const paths = [...new Set(changedPaths)].sort(compare);
  const report: VerificationReport = { passed: true, checks: [], problems: [] };
  for (const path of paths) {
    const results = (await checkPath(rootDir, path, libDir)).sort((a, b) => compare(a.name, b.name));
    for (const { name, status, message, problems } of results) {
      report.checks.push(message === undefined ? { name, path, status } : { name, path, status, message });
      const byLine = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
      report.problems.push(...byLine.map((problem) => ({ check: name, path, ...problem })));
      if (status === 'failed') report.passed = false;
    }
  }
  return report;
};
