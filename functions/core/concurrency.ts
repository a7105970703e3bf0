/**
 * `work` on every item, at most `limit` at once, results in the items' order. Rejects with the
 * first error, after the work already started has ended.
 */
export const mapWithConcurrency = async <T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
      while (next < items.length && !failure) {
        const index = next++;
        try {
          results[index] = await work(items[index] as T, index);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw failure.error;
  return results;
};
