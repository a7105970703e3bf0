/**
 * How the delivery queue feeds the dispatcher: the stack's SQS event source and the local
 * runtime's queue poller read these, so the two hand the dispatcher the same batches.
 */

/** Messages per invocation. */
export const dispatcherBatchSize = 10;

/**
 * Batches the local poller runs at once. In AWS the event source (no MaximumConcurrency set) starts
 * with five concurrent batches and adds pollers while messages wait, up to 1,000; the local runtime,
 * one process, stops at this bound instead.
 */
export const localDispatcherConcurrentBatches = 10;
