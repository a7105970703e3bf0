import { jest } from '@jest/globals';
import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../functions/adapters/dynamodb/client';

/** A request handler that answers every call with `{"Item": {"pk": {"S": "a"}}}`, as DynamoDB would. */
const answering = () => ({
  handle: async () => ({
    response: {
      statusCode: 200,
      reason: 'OK',
      headers: { 'content-type': 'application/x-amz-json-1.0' },
      body: Readable.from([Buffer.from(JSON.stringify({ Item: { pk: { S: 'a' } } }))]),
    },
  }),
  updateHttpClientConfig: () => undefined,
  httpHandlerConfigs: () => ({}),
});

const spyLogger = () => ({ debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() });

const config = (logger: ReturnType<typeof spyLogger>) => ({
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  requestHandler: answering(),
  logger,
});

describe('the DynamoDB clients', () => {
  it('answer calls without building a redacted copy of each for the SDK logger', async () => {
    const logger = spyLogger();
    const client = createDocumentClient(config(logger));
    await expect(client.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } }))).resolves.toMatchObject({
      Item: { pk: 'a' },
    });
    expect(logger.info).not.toHaveBeenCalled();
  });

  it('(the SDK as configured by default does build one for every call)', async () => {
    const logger = spyLogger();
    const client = DynamoDBDocumentClient.from(new DynamoDBClient(config(logger)));
    await client.send(new GetCommand({ TableName: 'table', Key: { pk: 'a', sk: 'b' } }));
    expect(logger.info).toHaveBeenCalledTimes(1);
  });
});
