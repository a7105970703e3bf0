/**
 * What must be undone however the bench ends (temporary directories, the runtime with its JVM):
 * the normal path undoes it in `finally` blocks, an interrupt through `runCleanups`.
 */

type Cleanup = () => Promise<void>;

const pending = new Set<Cleanup>();

/** Registers `cleanup` until the returned function is called (which also runs it, once). */
export const deferCleanup = (cleanup: Cleanup): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  const once: Cleanup = () => (done ??= cleanup());
  pending.add(once);
  return async () => {
    pending.delete(once);
    await once();
  };
};

/** Runs every registered cleanup, newest first, reporting (not throwing) failures. */
export const runCleanups = async (): Promise<void> => {
  for (const cleanup of [...pending].reverse()) {
    pending.delete(cleanup);
    await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
  }
};
