import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { checkedFetch } from './contract';

/**
 * A local runtime of its own, started as `npm start` would start it (`bin/start.ts`), for tests
 * that must stop and restart the service: unlike the shared runtime, it keeps its data in
 * `dataDir` (DynamoDB Local on disk).
 */
export interface ChildRuntime {
  child: ChildProcess;
  apiUrl: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it exited. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export const startChildRuntime = async (dataDir: string, env: Record<string, string> = {}): Promise<ChildRuntime> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/start.ts', '--port', '0'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'ERROR', IN_MEMORY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const apiUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local runtime did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const ready = /API ready at (http:\/\/localhost:\d+\/v1)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`local runtime exited with ${signal ?? code}:\n${output}`));
    });
  });
  let stopping: ReturnType<ChildRuntime['stop']> | undefined;
  return {
    child,
    apiUrl,
    output: () => output,
    stop: (graceMs = 10_000) =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
          const result = await exited;
          clearTimeout(force);
          return result;
        }
        return exited;
      })()),
  };
};

/** Ids of the running processes whose command line mentions `text` (e.g. a data directory). */
export const processesMentioning = async (text: string): Promise<number[]> => {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').some((arg) => arg.includes(text))) found.push(Number(entry));
  }
  return found.filter((pid) => pid !== process.pid);
};

/** A minimal client for a runtime other than the shared one. */
export const clientFor = (apiUrl: string, key: string) => {
  const send = async (method: string, path: string, json?: unknown) => {
    const response = await checkedFetch()(`${apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json',
        ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined, text };
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, json?: unknown) => send('POST', path, json),
  };
};
