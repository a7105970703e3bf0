import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { median } from './stats';

/** Cold init of a bundle: a fresh `node` process times its own `await import(bundle)`. */

/** What every Lambda function finds in its environment (the runtime's variables), minus anything real. */
export const lambdaLikeEnvironment = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
} as const;

const probeScript = [
  'const cpu = process.cpuUsage();',
  'const started = performance.now();',
  'await import(process.argv[1]);',
  'const initMs = performance.now() - started;',
  'const used = process.cpuUsage(cpu);',
  'process.stdout.write(JSON.stringify({ initMs, cpuMs: (used.user + used.system) / 1000 }));',
  'process.exit(0);',
].join(' ');

const probeTimeoutMs = 20_000;

export interface InitSample {
  /** Wall-clock time of the import (performance.now), ms. */
  initMs: number;
  /** CPU time the process spent during the import (user + system, all threads), ms: far less sensitive to a busy machine. */
  cpuMs: number;
}

/** One fresh process; resolves to how long its import of `file` took. */
export const measureInitOnce = (file: string, environment: Record<string, string> = {}): Promise<InitSample> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', probeScript, pathToFileURL(file).href], {
      // A clean environment: nothing of the bench's own (endpoints, tsx loaders) leaks in.
      env: { PATH: process.env.PATH ?? '', ...lambdaLikeEnvironment, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: probeTimeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      try {
        const { initMs, cpuMs } = JSON.parse(stdout) as InitSample;
        resolve({ initMs, cpuMs });
      } catch {
        reject(new Error(`init probe of ${file} failed (${signal ?? `exit ${String(code)}`}): ${stderr.trim().slice(0, 500)}`));
      }
    });
  });

export interface InitPair {
  name: string;
  /** Imports of the function's bundle. */
  samples: InitSample[];
  /** Imports of the baseline, each run right before or after one of the function's. */
  baselineSamples: InitSample[];
  medianMs: number;
  baselineMedianMs: number;
  cpuMedianMs: number;
  baselineCpuMedianMs: number;
}

/**
 * `runs` pairs per function, baseline and function back to back, the order alternating from one
 * round to the next, so drifting machine load hits both alike. One discarded run of each bundle
 * first warms the file cache.
 */
export const measureColdInits = async (
  baselineFile: string,
  functions: readonly { name: string; file: string; environment?: Record<string, string> }[],
  runs: number,
  onRound: (round: number) => void = () => {},
): Promise<InitPair[]> => {
  await measureInitOnce(baselineFile);
  for (const fn of functions) await measureInitOnce(fn.file, fn.environment);
  const pairs = functions.map((f) => ({ name: f.name, samples: [] as InitSample[], baselineSamples: [] as InitSample[] }));
  for (let round = 0; round < runs; round += 1) {
    for (const [i, fn] of functions.entries()) {
      const pair = pairs[i] as (typeof pairs)[number];
      if (round % 2 === 0) {
        pair.baselineSamples.push(await measureInitOnce(baselineFile));
        pair.samples.push(await measureInitOnce(fn.file, fn.environment));
      } else {
        pair.samples.push(await measureInitOnce(fn.file, fn.environment));
        pair.baselineSamples.push(await measureInitOnce(baselineFile));
      }
    }
    onRound(round + 1);
  }
  const wall = (samples: InitSample[]) => median(samples.map((s) => s.initMs));
  const cpu = (samples: InitSample[]) => median(samples.map((s) => s.cpuMs));
  return pairs.map((pair) => ({
    ...pair,
    medianMs: wall(pair.samples),
    baselineMedianMs: wall(pair.baselineSamples),
    cpuMedianMs: cpu(pair.samples),
    baselineCpuMedianMs: cpu(pair.baselineSamples),
  }));
};
