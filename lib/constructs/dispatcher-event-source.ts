/**
 * How the delivery queue feeds the dispatcher: the stack's SQS event source and the local
 * runtime's queue poller read these, so the two hand the dispatcher the same batches.
 */

/** Messages per invocation. */
export const dispatcherBatchSize = 10;

/**
 * Batches the event source runs at once in AWS, at most (its MaximumConcurrency: it starts with five
 * and adds pollers while messages wait): a burst of events may not take the account's concurrency
 * from the API's functions. Each batch runs its attempts side by side.
 */
export const dispatcherMaxConcurrency = 50;

/** Batches the local poller runs at once: the local runtime, one process, stops at this bound. */
export const localDispatcherConcurrentBatches = 10;
