/**
 * DynamoDB Local for the contract tier, as a process of its own (run with `node --import tsx`):
 * jest's global setup cannot load the ES module that starts it. Prints `{"endpoint": …}` once
 * it answers, and stops it on SIGTERM or when its standard input closes (jest went away).
 */
import { startDynamoDbLocal } from '../../../lib/local/dynamodb-local';

const dynamodb = await startDynamoDbLocal({ inMemory: true });
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await dynamodb.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ endpoint: dynamodb.endpoint })}\n`);
