import type { ChildProcess } from 'node:child_process';

/** Stops the tier's DynamoDB Local and waits until it has exited. */
export default async (): Promise<void> => {
  const child = (globalThis as { contractDynamoDb?: ChildProcess }).contractDynamoDb;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};
