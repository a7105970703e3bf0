import { spawn, type ChildProcess } from 'node:child_process';
import { apiUrl } from './runtime';
import { eventually } from './receiver';

/** The CLI (`npm run cli -- …`) as a user runs it, against the integration runtime. */
const cliArgs = (args: string[]) => ['--conditions=source', '--import', 'tsx', 'bin/cli.ts', ...args];

const cliEnv = (key: string, env: Record<string, string>) => ({
  ...process.env,
  SERVICE_API_URL: apiUrl(),
  SERVICE_API_KEY: key,
  // The CLI must not find the developer's own runtime or state.
  DATA_DIR: '/nonexistent',
  ...env,
});

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const runCli = (key: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { env: cliEnv(key, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches `pattern`, with the match. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Ctrl-C, and the exit status. */
  interrupt(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Stops every CLI a test started and left running (a failed assertion skips its own interrupt). */
export const stopClis = async (): Promise<void> => {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
};

export const startCli = (key: string, args: string[], env: Record<string, string> = {}): RunningCli => {
  const child = spawn(process.execPath, cliArgs(args), { env: cliEnv(key, env), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitForStderr: (pattern, timeoutMs = 60_000) =>
      eventually(
        () => pattern.exec(stderr) ?? undefined,
        timeoutMs,
        () => `stderr so far:\n${stderr}`,
        50,
      ),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
};
