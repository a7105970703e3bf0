import { systemClock } from '../../core/clock';
import type { JobFailedDeps } from '../../core/jobs/job-failed';
import type { TableRef } from './client';
import { dynamoFindingRepository } from './finding-repository';
import { dynamoReviewRepository } from './review-repository';
import { dynamoScanRepository } from './scan-repository';
import { dynamoTestRepository } from './testing-repository';

/** What failing a job's record needs on a table: the job safety net's function and the local runtime's restart. */
export const jobFailedDeps = (table: TableRef): JobFailedDeps => ({
  scans: dynamoScanRepository(table),
  findings: dynamoFindingRepository(table),
  tests: dynamoTestRepository(table),
  reviews: dynamoReviewRepository(table),
  clock: systemClock,
});
