import { pathToFileURL } from 'node:url';
import type { SecurityJob, SecurityJobs } from '../../core/security/security-jobs';

type JobHandler = (job: SecurityJob) => Promise<unknown>;

/** AWS: an asynchronous invocation of the security function (Lambda retries it, then its DLQ). */
const lambdaSecurityJobs = (functionName: string): SecurityJobs => ({
  async start(job) {
    const { InvokeCommand, LambdaClient } = await import('@aws-sdk/client-lambda');
    await new LambdaClient({}).send(new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: Buffer.from(JSON.stringify(job)) }));
  },
});

/**
 * The local runtime: the same handler, in this process, not awaited (as an asynchronous
 * invocation). Its module path comes from the environment so no bundle ever includes it.
 */
const inProcessSecurityJobs = (modulePath: string): SecurityJobs => {
  let handler: Promise<JobHandler> | undefined;
  return {
    async start(job) {
      handler ??= import(pathToFileURL(modulePath).href).then((module: { handler: JobHandler }) => module.handler);
      const run = await handler;
      void run(job).catch((error: unknown) => console.error(`security job ${job.action} ${job.ref.id} failed:`, error));
    },
  };
};

export const securityJobsFromEnvironment = (env: NodeJS.ProcessEnv = process.env): SecurityJobs => {
  if (env.LOCAL_SECURITY_JOBS_MODULE) return inProcessSecurityJobs(env.LOCAL_SECURITY_JOBS_MODULE);
  if (env.SECURITY_FUNCTION_NAME) return lambdaSecurityJobs(env.SECURITY_FUNCTION_NAME);
  throw new Error('SECURITY_FUNCTION_NAME is not set');
};
