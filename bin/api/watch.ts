import type { CommandContext } from './command';
import { sleep } from './output';

/**
 * Polls `read` until `done` holds for what it answers (or Ctrl-C), telling `onChange` about every
 * answer. Answers the last value; undefined when interrupted.
 */
export const pollUntil = async <T>(
  context: CommandContext,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  onChange: (value: T) => void,
  intervalMs = 750,
): Promise<T | undefined> => {
  for (;;) {
    const value = await read();
    onChange(value);
    if (done(value)) return value;
    await sleep(intervalMs, context.signal);
    if (context.signal.aborted) return undefined;
  }
};

/** Exit status of a command interrupted while it watched: 130, as for SIGINT. */
export const interrupted = 130;
