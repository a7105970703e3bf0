/** How often a change is tried again when someone else changed the record first. */
export const maxChangeAttempts = 10;

/**
 * Reads a record, works out its change and stores it only if nobody changed the record meanwhile
 * (`store` writes conditionally and answers null when it lost the race); then reads again and
 * retries. `change` answering null means nothing to do: the current record is answered as it is.
 * Undefined when there is no record.
 */
export const changeOptimistically = async <T, C>(
  what: string,
  read: () => Promise<T | undefined>,
  change: (current: T) => C | null,
  store: (current: T, change: C) => Promise<T | null>,
): Promise<T | undefined> => {
  for (let attempt = 1; attempt <= maxChangeAttempts; attempt += 1) {
    const current = await read();
    if (current === undefined) return undefined;
    const wanted = change(current);
    if (wanted === null) return current;
    const stored = await store(current, wanted);
    if (stored !== null) return stored;
  }
  throw new Error(`${what} kept changing; gave up after ${maxChangeAttempts} attempts`);
};
