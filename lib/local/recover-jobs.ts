import type { TableRef } from '../../functions/adapters/dynamodb/client';
import { jobFailedDeps } from '../../functions/adapters/dynamodb/job-failed-deps';
import { entityTypes } from '../../functions/adapters/dynamodb/keys';
import { recordFailedJob } from '../../functions/core/jobs/job-failed';
import type { scanFor } from './recover-orphans';

/** Each job the runtime runs in its process, the records it leaves under way, and what to ask again. */
const orphanedJobs = [
  { action: 'scan', entity: entityTypes.scan, statuses: ['queued', 'running'], again: 'create it again' },
  { action: 'remediate', entity: entityTypes.finding, statuses: ['remediating'], again: 'remediate the finding again' },
  { action: 'generate', entity: entityTypes.testSuite, statuses: ['queued', 'running'], again: 'generate the tests again' },
  { action: 'run', entity: entityTypes.testRun, statuses: ['queued', 'running'], again: 'run the tests again' },
] as const;

/**
 * Scans, remediations, test generations and test runs run in the local runtime's process, as
 * reviews do: after a restart, one that was under way has nothing left to finish it, and would
 * stay `running` (a finding `remediating`, which refuses another remediation) for ever. Each is
 * failed as the job safety net fails it in AWS, with its event where it has one.
 */
export const failOrphanedJobs = async (table: TableRef, scan: typeof scanFor): Promise<number> => {
  const deps = jobFailedDeps(table);
  let failed = 0;
  for (const { action, entity, statuses, again } of orphanedJobs) {
    const values = Object.fromEntries(statuses.map((status, index) => [`:status${index}`, status]));
    for await (const ref of scan(table, entity, `#status IN (${Object.keys(values).join(', ')})`, { '#status': 'status' }, values)) {
      await recordFailedJob(deps, { action, ref }, `the local runtime stopped while it ran; ${again}`);
      failed += 1;
    }
  }
  return failed;
};
