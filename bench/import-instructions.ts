import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lambdaLikeEnvironment } from './cold-init';
import { probeNode } from './lambda-node';

/**
 * The instructions a fresh `node` process executes to import a bundle, counted by valgrind's
 * callgrind: the same count for the same bundle, node and environment whatever else the machine is
 * doing, where a timed import moves by ±4 % between runs on a shared machine. It counts work, not
 * time (no cache misses, no waiting), so it is the deterministic cross-check of the timed ratios.
 *
 * Each count is of a whole process; the process importing an empty module is subtracted, leaving
 * the import. `--hash-seed=1`: V8 seeds its string hashes at random per process, which moves a
 * count by ~1.5 M; with a fixed seed it repeats to a few thousand instructions. (The fixed seed makes
 * V8 rehash its startup snapshot, the same ~120 M in every process: the subtraction removes it.)
 */

const probeScript = 'await import(process.argv[1]); process.exit(0);';

const probeTimeoutMs = 120_000;

/** Whether valgrind is installed (`.ci/run` installs it; elsewhere it may be missing). */
export const canCountInstructions = (): Promise<boolean> =>
  new Promise((resolve) => execFile('valgrind', ['--version'], (error) => resolve(error === null)));

/** Instructions of one fresh process that imports `file` and exits. */
const countProcessInstructions = (file: string, environment: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    execFile(
      'valgrind',
      [
        '--tool=callgrind',
        '--callgrind-out-file=/dev/null',
        probeNode().path,
        '--hash-seed=1',
        '--input-type=module',
        '-e',
        probeScript,
        pathToFileURL(file).href,
      ],
      {
        env: { PATH: process.env.PATH ?? '', ...lambdaLikeEnvironment, ...environment },
        timeout: probeTimeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, _stdout, stderr) => {
        const collected = /Collected : (\d+)/.exec(stderr);
        if (collected) resolve(Number(collected[1]));
        else reject(new Error(`callgrind counted nothing for ${file}${error ? ` (${error.message})` : ''}: ${stderr.trim().slice(-400)}`));
      },
    );
  });

export interface ImportInstructions {
  /** Instructions of the baseline's import (its process minus the empty import's). */
  baseline: number;
  /** The same for each function, by name. */
  byName: Map<string, number>;
}

/** Counts every bundle's import, one process per core at a time. */
export const countImportInstructions = async (
  workDir: string,
  baselineFile: string,
  functions: readonly { name: string; file: string; environment?: Record<string, string> }[],
  onProgress: (done: number, total: number) => void = () => {},
): Promise<ImportInstructions> => {
  const emptyFile = join(workDir, 'empty-module.mjs');
  await writeFile(emptyFile, 'export const handler = async () => ({ statusCode: 200 });\n');
  const jobs = [
    { name: '(empty)', file: emptyFile, environment: {} },
    { name: '(baseline)', file: baselineFile, environment: {} },
    ...functions.map((f) => ({ ...f, environment: f.environment ?? {} })),
  ];
  const counts = new Map<string, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number];
      counts.set(job.name, await countProcessInstructions(job.file, job.environment));
      onProgress(counts.size, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, cpus().length) }, worker));
  const empty = counts.get('(empty)') ?? 0;
  return {
    baseline: (counts.get('(baseline)') ?? 0) - empty,
    byName: new Map(functions.map((f) => [f.name, (counts.get(f.name) ?? 0) - empty])),
  };
};
