import type { Clock } from '../../../functions/core/clock';

/** A clock that stands still until the test moves it. */
export interface ControlledClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export const startOfTests = Date.parse('2026-11-21T10:00:00.000Z');

export const controlledClock = (startMs: number = startOfTests): ControlledClock => {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
};
