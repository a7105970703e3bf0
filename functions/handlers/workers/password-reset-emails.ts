import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { systemClock } from '../../core/clock';
import { type PasswordResetRequest, sendRequestedPasswordReset } from '../../core/users/password-reset-requests';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { entityTypes, withoutKeys } from '../../adapters/dynamodb/keys';
import { dynamoPasswordResetRequestStore } from '../../adapters/dynamodb/password-reset-request-store';
import { dynamoUserRepository } from '../../adapters/dynamodb/user-repository';
import { mailerFromEnvironment } from '../../adapters/runtime/mailer';
import { logger } from '../../observability/logger';
import { tracedTable } from '../../observability/tracer';
import type { StreamRecordLike } from './stream-consumers';

/** The records this function is given (its mapping's filter): new "forgot password" requests. */
export const passwordResetRequestRecords = (record: StreamRecordLike): boolean =>
  record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === entityTypes.passwordResetRequest;

type Deps = Parameters<typeof sendRequestedPasswordReset>[1];

const requestOf = (record: DynamoDBRecord): PasswordResetRequest | undefined => {
  const image = record.dynamodb?.NewImage;
  if (!image) return undefined;
  const item = withoutKeys<Record<string, unknown>>(unmarshall(image as Record<string, AttributeValue>));
  const fields = ['id', 'email', 'origin', 'created_at', 'expires_at'] as const;
  if (!fields.every((field) => typeof item[field] === 'string')) return undefined;
  return Object.fromEntries(fields.map((field) => [field, item[field]])) as unknown as PasswordResetRequest;
};

/**
 * Sends the e-mail of each new request of the batch, in stream order (`sendRequestedPasswordReset`:
 * at most one per request, however often a record comes). A request whose e-mail failed is the
 * batch's failure: the stream hands it over again from there (requests after it, handled already,
 * are passed over then), and after the mapping's retries it lands in the stream-failure queue.
 */
export const passwordResetEmails =
  (deps: Deps) =>
  async (batch: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    let firstFailure: string | undefined;
    for (const record of batch.Records) {
      if (!passwordResetRequestRecords(record as StreamRecordLike)) continue;
      const request = requestOf(record);
      if (!request) {
        // Never readable, however often it comes: passed over rather than holding the stream up.
        logger.error('a password reset request that cannot be read', { sequence_number: record.dynamodb?.SequenceNumber });
        continue;
      }
      try {
        const outcome = await sendRequestedPasswordReset(request, deps);
        logger.info('password reset request handled', { request_id: request.id, outcome });
      } catch (error) {
        logger.error('password reset e-mail not sent', { request_id: request.id, error: error as Error });
        firstFailure ??= record.dynamodb?.SequenceNumber ?? '';
      }
    }
    return { batchItemFailures: firstFailure === undefined ? [] : [{ itemIdentifier: firstFailure }] };
  };

let deps: Deps | undefined;
const depsFromEnvironment = (): Deps => {
  if (deps) return deps;
  const table = tracedTable(tableFromEnvironment());
  return (deps = {
    users: dynamoUserRepository(table),
    resetRequests: dynamoPasswordResetRequestStore(table),
    mailer: mailerFromEnvironment(),
    clock: systemClock,
  });
};

export const handler = (batch: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => passwordResetEmails(depsFromEnvironment())(batch);
