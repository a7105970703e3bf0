import type { SecurityJob, SecurityJobs } from '../../core/security/security-jobs';
import { asyncJobsFromEnvironment } from '../jobs/async-jobs';

export const securityJobsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): SecurityJobs =>
  asyncJobsFromEnvironment<SecurityJob>({ module: 'LOCAL_SECURITY_JOBS_MODULE', function: 'SECURITY_FUNCTION_NAME' }, env);
