import { type AwsJsonCall, awsJsonCall } from './aws-json-call';
import type { SignedAwsOptions } from './signed-aws-request';

/**
 * SQS's API (AWS JSON 1.0, `AmazonSQS.<Operation>`) as signed calls, for what the functions that
 * queue webhook deliveries send (SendMessage, SendMessageBatch) without `@aws-sdk/client-sqs`.
 * Endpoint: `AWS_ENDPOINT_URL_SQS`, else the queue URL's origin (as the SDK's `useQueueUrlAsEndpoint`).
 */
export const sqsCall = (queueUrl: string, options: SignedAwsOptions = {}): AwsJsonCall =>
  awsJsonCall(
    { signingName: 'sqs', endpointId: 'SQS', targetPrefix: 'AmazonSQS', queryCompatible: true, defaultEndpoint: new URL(queueUrl).origin },
    options,
  );
