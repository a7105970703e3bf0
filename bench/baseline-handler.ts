import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The bench's BASELINE function: it only builds a DynamoDB document client, the least any function
 * of this service does. Every real function's bundle size and cold init are compared with it.
 */
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (): Promise<{ statusCode: number; body: string }> => ({ statusCode: 200, body: typeof client.send });
