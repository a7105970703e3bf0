import * as v from 'valibot';
import { systemClock } from '../../core/clock';
import type { ReviewJobDeps } from '../../core/reviews/run-review';
import { runReviewJob } from '../../core/reviews/run-review';
import { providerFor } from '../../adapters/ai/registry';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoProjectRepository } from '../../adapters/dynamodb/project-repository';
import { dynamoReviewRepository } from '../../adapters/dynamodb/review-repository';
import { changeReaderFromEnvironment } from '../../adapters/repository/change-reader-runtime';
import { scratchFolders } from '../../adapters/workspace/working-tree';
import { sastScanner } from '../../engines/scanners/sast/sast-scanner';
import { secretsScanner } from '../../engines/scanners/secrets-scanner';
import { verifyChangedFiles } from '../../engines/verification/check-files';
import { logger } from '../../observability/logger';

const table = tableFromEnvironment();

const deps: ReviewJobDeps = {
  reviews: dynamoReviewRepository(table),
  projects: dynamoProjectRepository(table),
  clock: systemClock,
  changes: changeReaderFromEnvironment(),
  scratch: scratchFolders('review-'),
  analyser: { checkFiles: verifyChangedFiles, scanners: [secretsScanner(), sastScanner()] },
  aiProvider: async (name) => providerFor(name),
  reportFailure: (error, ref) => logger.warn('review failed', { review_id: ref.id, error: error as Error }),
};

const job = v.object({
  action: v.literal('review'),
  ref: v.object({ account_id: v.string(), mode: v.picklist(['live', 'test']), id: v.string() }),
});

/** Invoked asynchronously (locally: in process) by POST /v1/reviews. */
export const handler = async (event: unknown): Promise<void> => {
  const { ref } = v.parse(job, event);
  await runReviewJob(deps, ref);
};
