import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deletedWebhookRecords, handler as deletedWebhooks } from './deleted-webhooks';
import { handler as passwordResetEmails, passwordResetRequestRecords } from './password-reset-emails';
import { oneReaderFor } from './stream-consumers';

/**
 * The table stream's second reader (the fan-out is the first; DynamoDB serves two readers per
 * shard without throttling, so work the stream starts joins one of them rather than adding a
 * third): removed webhooks lose their deliveries, new "forgot password" requests get their
 * e-mail. Each function is handed its own records of the batch; the batch fails from the earliest
 * record either reports, and both are idempotent, so what is read again is passed over.
 */
export const secondStreamReader = oneReaderFor([
  // First: someone waits for the e-mail, nobody for the removal (which may take minutes).
  { filter: passwordResetRequestRecords, handler: passwordResetEmails },
  { filter: deletedWebhookRecords, handler: deletedWebhooks },
]);

export const handler = (batch: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => secondStreamReader.handler(batch);
