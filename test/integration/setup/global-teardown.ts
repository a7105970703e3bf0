import { rm } from 'node:fs/promises';
import type { ChildRuntime } from '../support/child-runtime';

/** Stops the local runtime gracefully (it stops DynamoDB Local), forcefully after 5 s. */
export default async (): Promise<void> => {
  await (globalThis as { localRuntime?: ChildRuntime }).localRuntime?.stop(5_000);
  if (process.env.IT_DATA_DIR) await rm(process.env.IT_DATA_DIR, { recursive: true, force: true });
};
