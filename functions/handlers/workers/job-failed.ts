import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type FailedJob, recordFailedJob } from '../../core/jobs/job-failed';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { jobFailedDeps } from '../../adapters/dynamodb/job-failed-deps';
import { logger } from '../../observability/logger';
import { tracedTable } from '../../observability/tracer';

const deps = jobFailedDeps(tracedTable(tableFromEnvironment()));

/** A Lambda on-failure destination record: the original request and why it failed. */
interface DestinationRecord {
  requestPayload?: FailedJob;
  requestContext?: { condition?: string };
  responsePayload?: { errorType?: string; errorMessage?: string };
}

const reasonOf = (record: DestinationRecord): string => {
  const condition = record.requestContext?.condition;
  if (condition === 'RetriesExhausted') return `it failed after its retries (${record.responsePayload?.errorType ?? 'error'})`;
  if (condition === 'EventAgeExceeded') return 'it waited too long to run';
  return `it failed (${condition ?? 'unknown reason'})`;
};

const recordMessage = async (message: SQSRecord): Promise<void> => {
  try {
    const record = JSON.parse(message.body) as DestinationRecord;
    if (record.requestPayload?.action && record.requestPayload.ref) await recordFailedJob(deps, record.requestPayload, reasonOf(record));
    logger.info('job failed', {
      action: record.requestPayload?.action,
      id: record.requestPayload?.ref?.id,
      condition: record.requestContext?.condition,
    });
  } catch (error) {
    logger.error('could not record a failed job', { error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
};

const processor = new BatchProcessor(EventType.SQS);

/** Reads the security, tests and review functions' failure queues, one message after the other; a failed message alone comes back. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> =>
  processPartialResponse(event, recordMessage, processor, { processInParallel: false, throwOnFullBatchFailure: false });
