/**
 * Calls `onDeadline` once `performance.now()` has reached `deadline`, never before. Node's timers
 * take whole milliseconds and drop a fraction (a delay of 9999.6 ms waits about 9999), and what is
 * left of a limit after some of it was spent (resolving the target) rarely is whole: an attempt said
 * to have had no answer "within 10000 ms" had waited 9999. A timer that fires early is set again
 * for what is left.
 */
export const atDeadline = (deadline: number, onDeadline: () => void): { clear(): void } => {
  let timer: NodeJS.Timeout;
  const check = (): void => {
    const left = deadline - performance.now();
    if (left > 0) timer = setTimeout(check, Math.ceil(left));
    else onDeadline();
  };
  timer = setTimeout(check, Math.max(0, Math.ceil(deadline - performance.now())));
  return { clear: () => clearTimeout(timer) };
};
