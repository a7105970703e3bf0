import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts the real local runtime (`bin/start.ts`, in memory, on a free port) once for the
 * integration tier, exactly as `npm start` would, and tells the tests where it is.
 */
export default async (): Promise<void> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'pas-it-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/start.ts', '--in-memory', '--port', '0'], {
    env: { ...process.env, DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '20', RATE_LIMIT_BURST: '100', LOG_LEVEL: 'ERROR', LOCAL_TIME_SCALE: '0.01' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
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
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`local runtime exited with ${code}:\n${output}`)));
  });
  process.env.IT_API_URL = apiUrl;
  process.env.IT_DATA_DIR = dataDir;
  (globalThis as { localRuntime?: typeof child }).localRuntime = child;
};
