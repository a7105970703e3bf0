import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh directory for this run's synthesized apps: each app (one per context the infra tests
 * ask for) is synthesized once and read by every test file from there (`../synthesized.ts`).
 */
export default async (): Promise<void> => {
  process.env.INFRA_SYNTH_CACHE = await mkdtemp(join(tmpdir(), 'pas-infra-'));
};
