import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TableRef } from '../functions/adapters/dynamodb/client';
import { runClosedLoop } from './http-load';

/**
 * How many calls of each kind DynamoDB Local serves per second on this machine, at the concurrency
 * the webhook pipeline runs at: the budget every delivery spends from. Items of about a delivery's
 * size, under keys of their own (`BENCH_PROBE#…`) that nothing else reads.
 */

export interface ProbeResult {
  operation: string;
  concurrency: number;
  callsPerSecond: number;
  meanMs: number;
}

const payload = 'x'.repeat(1_500);

export const probeDynamoCapacity = async (table: TableRef, callsPerOperation: number, concurrency: number): Promise<ProbeResult[]> => {
  const run = randomUUID();
  const { client, tableName } = table;
  const key = (phase: string, i: number) => ({ pk: `BENCH_PROBE#${run}#${i % 50}`, sk: `${phase}#${i}` });
  const counter = (i: number) => ({ pk: `BENCH_PROBE#${run}#${i % 50}`, sk: 'COUNT' });
  const operations: [string, (phase: string, i: number) => Promise<unknown>][] = [
    ['PutItem', (phase, i) => client.send(new PutCommand({ TableName: tableName, Item: { ...key(phase, i), payload } }))],
    ['GetItem', (phase, i) => client.send(new GetCommand({ TableName: tableName, Key: key(phase, i), ConsistentRead: true }))],
    [
      'UpdateItem',
      (phase, i) =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key(phase, i),
            UpdateExpression: 'SET n = :n',
            ExpressionAttributeValues: { ':n': i },
          }),
        ),
    ],
    ['DeleteItem', (phase, i) => client.send(new DeleteCommand({ TableName: tableName, Key: key(phase, i) }))],
    [
      'TransactWriteItems',
      (phase, i) =>
        client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: { TableName: tableName, Item: { ...key(`${phase}-tx`, i), payload }, ConditionExpression: 'attribute_not_exists(pk)' },
              },
              {
                Update: { TableName: tableName, Key: counter(i), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } },
              },
            ],
          }),
        ),
    ],
  ];
  const loop = (phase: string, requests: number, call: (phase: string, i: number) => Promise<unknown>) =>
    runClosedLoop({
      name: phase,
      concurrency,
      requests,
      attempt: async (i) => {
        await call(phase, i);
        return undefined;
      },
    });
  // Every kind once unmeasured first, so that none is timed while DynamoDB Local's JIT still warms up.
  for (const [, call] of operations) await loop('warm', Math.ceil(callsPerOperation / 2), call);
  const results: ProbeResult[] = [];
  for (const [operation, call] of operations) {
    const measured = await loop('measured', callsPerOperation, call);
    results.push({
      operation,
      concurrency,
      callsPerSecond: measured.requestsPerSecond,
      meanMs: (measured.elapsedMs * concurrency) / callsPerOperation,
    });
  }
  // The puts were deleted by the DeleteItem round; the transactions' items and the counters stay in
  // the bench's throw-away in-memory table.
  return results;
};
