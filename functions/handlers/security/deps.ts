import { systemClock } from '../../core/clock';
import type { SecurityJobs } from '../../core/security/security-jobs';
import type { SecurityDeps } from '../../core/security/security-use-cases';
import { tableFromEnvironment } from '../../adapters/dynamodb/client';
import { dynamoFindingRepository } from '../../adapters/dynamodb/finding-repository';
import { dynamoScanRepository } from '../../adapters/dynamodb/scan-repository';

const noJobs: SecurityJobs = {
  start: async () => {
    throw new Error('this function starts no security jobs');
  },
};

export const securityDeps = (jobsOf: () => SecurityJobs = () => noJobs): SecurityDeps => {
  const table = tableFromEnvironment();
  return { scans: dynamoScanRepository(table), findings: dynamoFindingRepository(table), jobs: jobsOf(), clock: systemClock };
};
