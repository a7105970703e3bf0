import { rm } from 'node:fs/promises';

export default async (): Promise<void> => {
  const dir = process.env.INFRA_SYNTH_CACHE;
  if (dir) await rm(dir, { recursive: true, force: true });
};
