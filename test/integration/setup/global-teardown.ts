import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';

/** Stops the local runtime gracefully (it stops DynamoDB Local), forcefully after 5 s. */
export default async (): Promise<void> => {
  const child = (globalThis as { localRuntime?: ChildProcess }).localRuntime;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(force);
  }
  if (process.env.IT_DATA_DIR) await rm(process.env.IT_DATA_DIR, { recursive: true, force: true });
};
