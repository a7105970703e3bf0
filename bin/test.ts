/**
 * `npm test`: every tier, in two jest processes at once: the integration tier (a local runtime and
 * its DynamoDB Local, browsers) in one, unit + infra + contract + sdk in the other. Each keeps its
 * files in band, as before; the two lanes share nothing (each tier starts its own DynamoDB Local or
 * synthesis on free ports), and on two cores they take about the time of the integration tier
 * instead of the sum. Lines are prefixed with their lane.
 *
 * With arguments (`npm test -- --selectProjects unit -- test/unit/foo.test.ts`) it is jest in band
 * with those arguments, in this terminal, as before.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fencePreloadOption } from '../test/support/network-fence';

// Jest starts with the network fence installed (test/support/network-fence.ts), before its first line.
const jest = [
  '--experimental-vm-modules',
  '--no-warnings=ExperimentalWarning',
  fencePreloadOption,
  'node_modules/jest/bin/jest.js',
  '--runInBand',
];

interface Lane {
  name: string;
  projects: string[];
}

const lanes: Lane[] = [
  { name: 'integration', projects: ['integration'] },
  { name: 'unit+infra+contract+sdk', projects: ['unit', 'infra', 'contract', 'sdk'] },
];

const runInTerminal = (args: string[]): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...jest, ...args], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const prefixLines = (stream: NodeJS.ReadableStream, prefix: string, out: NodeJS.WriteStream): void => {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix} ${line}\n`));
};

const runLane = (lane: Lane): Promise<{ lane: Lane; code: number; seconds: number }> =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...jest, '--selectProjects', ...lane.projects], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prefixLines(child.stdout, `[${lane.name}]`, process.stdout);
    prefixLines(child.stderr, `[${lane.name}]`, process.stderr);
    child.on('exit', (code, signal) =>
      resolve({ lane, code: code ?? (signal ? 1 : 0), seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });

const args = process.argv.slice(2);
if (args.length > 0) {
  process.exitCode = await runInTerminal(args);
} else {
  const results = await Promise.all(lanes.map(runLane));
  for (const { lane, code, seconds } of results) {
    console.log(`[test] ${lane.name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s`);
  }
  process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
}
