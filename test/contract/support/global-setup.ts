import { spawn, type ChildProcess } from 'node:child_process';
import { dynamoDbEndpointVariable } from './table';

const startupTimeoutMs = 60_000;

/**
 * One DynamoDB Local (in memory, on a free port of 127.0.0.1) for the whole contract tier: every
 * test makes its own table in it, so the suites share one Java process.
 */
export default async (): Promise<void> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/contract/support/dynamodb-local-process.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  (globalThis as { contractDynamoDb?: ChildProcess }).contractDynamoDb = child;
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`DynamoDB Local did not start within ${startupTimeoutMs} ms`)), startupTimeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { endpoint: string }).endpoint);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`DynamoDB Local exited (${code ?? 'signal'}) before it answered`));
    });
  });
  process.env[dynamoDbEndpointVariable] = endpoint;
};
