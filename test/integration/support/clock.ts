import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits until this machine's clock (the runtime's too) is past `iso`, so a write made from now on
 * stores a later time than it: a time left as it was then shows that nothing was written.
 */
export const clockPast = async (iso: string): Promise<void> => {
  while (Date.now() <= Date.parse(iso)) await delay(1);
};
