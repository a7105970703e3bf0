/**
 * What one million API calls of a kind cost in AWS at list prices (us-east-1, on-demand, arm64),
 * from what the bench measured for that kind: its DynamoDB calls per request (by operation) and
 * its time per request at concurrency 1 in the local runtime (taken as the Lambda's billed
 * duration: an upper bound, as it includes the local HTTP server and the load generator), at the
 * function's memory size. Beside it, the floor of any API call: the HTTP API request, one Lambda
 * invocation and one read.
 */
import type { OperationCalls } from './dynamodb-calls';
import { listPrices } from './webhook-cost';

/** ServiceFunction's default memory size (no `/v1` route sets its own), in MB. */
export const API_FUNCTION_MEMORY_MB = 1024;

const READS = new Set(['GetItem', 'Query', 'BatchGetItem', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);

export interface ApiCallCost {
  name: string;
  durationMs: number;
  memoryMb: number;
  /** Request units per call, items taken as ≤ 4 KB read (strongly consistent, 1 unit) / ≤ 1 KB written (1 unit; 2 in a transaction, for its items counted as 1). */
  readUnits: number;
  writeUnits: number;
  usd: { httpApi: number; lambda: number; dynamodb: number; total: number };
}

/** The floor: the HTTP API request, one Lambda invocation (request charge only) and one read unit. */
export const floorUsdPerMillion = listPrices.httpApiRequestUsd + listPrices.lambdaRequestUsd + listPrices.readUnitUsd;

export const apiCallCost = (
  name: string,
  requests: number,
  byOperation: Record<string, OperationCalls>,
  durationMs: number,
  memoryMb = API_FUNCTION_MEMORY_MB,
): ApiCallCost => {
  let readUnits = 0;
  let writeUnits = 0;
  for (const [operation, { calls }] of Object.entries(byOperation)) {
    if (READS.has(operation)) readUnits += calls / requests;
    else if (WRITES.has(operation)) writeUnits += calls / requests;
    else if (operation === 'TransactWriteItems') writeUnits += (2 * calls) / requests;
  }
  const lambda = listPrices.lambdaRequestUsd + (durationMs / 1000) * (memoryMb / 1024) * 1_000_000 * listPrices.lambdaGbSecondUsd;
  const dynamodb = readUnits * listPrices.readUnitUsd + writeUnits * listPrices.writeUnitUsd;
  const httpApi = listPrices.httpApiRequestUsd;
  return { name, durationMs, memoryMb, readUnits, writeUnits, usd: { httpApi, lambda, dynamodb, total: httpApi + lambda + dynamodb } };
};
