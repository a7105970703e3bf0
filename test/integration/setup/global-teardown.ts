import { rm } from 'node:fs/promises';
import { readFenceLog } from '../../support/network-fence';
import type { ChildRuntime } from '../support/child-runtime';

/**
 * Stops the local runtime gracefully (it stops DynamoDB Local), forcefully after 5 s; then fails the
 * run if any process of it tried to reach beyond loopback (the network fence's record), naming each
 * attempt: the runtime's dispatcher, for one, records a refused delivery and carries on.
 */
export default async (): Promise<void> => {
  await (globalThis as { localRuntime?: ChildRuntime }).localRuntime?.stop(5_000);
  const refused = process.env.NETWORK_FENCE_LOG ? readFenceLog(process.env.NETWORK_FENCE_LOG) : [];
  if (process.env.IT_DATA_DIR) await rm(process.env.IT_DATA_DIR, { recursive: true, force: true });
  if (refused.length > 0)
    throw new Error(
      `network fence: the integration run tried to reach beyond loopback ${refused.length} time(s):\n${refused.map((line) => `  ${line}`).join('\n')}`,
    );
};
