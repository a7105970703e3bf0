/**
 * What a successful delivery costs in AWS at list prices (us-east-1, on-demand), from what the
 * bench measured: the service's DynamoDB calls per delivery, the delivery item's size and the
 * dispatcher's time per attempt. Lambda invocations and SQS requests depend on how full the
 * batches are: a burst fills them (stream batches of up to 100 events, SQS batches of 10), a
 * trickle of single events does not; both bounds are shown.
 */

export const listPrices = {
  /** DynamoDB on-demand, per million write / read request units. */
  writeUnitUsd: 0.625,
  readUnitUsd: 0.125,
  /** Lambda, per million requests, and per GB-second on arm64. */
  lambdaRequestUsd: 0.2,
  lambdaGbSecondUsd: 0.0000133334,
  /** SQS standard, per million requests. */
  sqsRequestUsd: 0.4,
  /** API Gateway HTTP API, per million requests (the first 300 million a month). */
  httpApiRequestUsd: 1.0,
} as const;

/** Both workers' memory (ServiceFunction's default). */
const workerMemoryGb = 1;

export interface DeliveryCost {
  batching: 'burst' | 'trickle';
  writeUnits: number;
  readUnits: number;
  lambdaInvocations: number;
  sqsRequests: number;
  /** Lambda GB-seconds per delivery. */
  gbSeconds: number;
  usdPerMillion: number;
}

const units = (bytes: number, unitBytes: number): number => Math.max(1, Math.ceil(bytes / unitBytes));

/**
 * One delivery's cost. `itemBytes`: the stored delivery before its first attempt; `dispatchMs` and
 * `fanOutMs`: the time a worker spends on it (a fan-out invocation's time is shared by its events).
 */
export const deliveryCost = (
  batching: DeliveryCost['batching'],
  itemBytes: number,
  attemptBytes: number,
  dispatchMs: number,
  fanOutMs: number,
): DeliveryCost => {
  const perStreamBatch = batching === 'burst' ? 100 : 1;
  const perSqsBatch = batching === 'burst' ? 10 : 1;
  // Fan-out: the put in a transaction (2 units per KB) and its share of the counter update.
  const fanOutWrites = 2 * units(itemBytes, 1024) + (2 * 1) / perStreamBatch;
  // Dispatcher: the claim and the result, each a write of the whole item.
  const dispatchWrites = units(itemBytes, 1024) + units(itemBytes + attemptBytes, 1024);
  // The webhook's read (eventually consistent, half a unit) and the list read shared by a stream
  // batch. The queue message carries the event's body (up to 16 KiB): the event is not read.
  const readUnits = 0.5 + 0.5 / perStreamBatch;
  const lambdaInvocations = 1 / perStreamBatch + 1 / perSqsBatch;
  // Send (batched by 10 from the fan-out), receive and delete (by the event source mapping, per batch).
  const sqsRequests = 0.1 + 2 / perSqsBatch;
  const gbSeconds = ((dispatchMs + fanOutMs / perStreamBatch) / 1000) * workerMemoryGb;
  const writeUnits = fanOutWrites + dispatchWrites;
  const usdPerMillion =
    writeUnits * listPrices.writeUnitUsd +
    readUnits * listPrices.readUnitUsd +
    lambdaInvocations * listPrices.lambdaRequestUsd +
    gbSeconds * 1_000_000 * listPrices.lambdaGbSecondUsd +
    sqsRequests * listPrices.sqsRequestUsd;
  return { batching, writeUnits, readUnits, lambdaInvocations, sqsRequests, gbSeconds, usdPerMillion };
};
