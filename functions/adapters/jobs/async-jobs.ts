import { pathToFileURL } from 'node:url';
import { lambdaEventInvoker } from './lambda-event-invoker';

/** Work the API hands to a worker function: a scan, a remediation, a test generation or run. */
export interface AsyncJobs<J extends { action: string; ref: { id: string } }> {
  start(job: J): Promise<void>;
}

type JobHandler<J> = (job: J) => Promise<unknown>;

/**
 * AWS: an asynchronous invocation of the worker function (Lambda retries it, then its failure
 * destination), as one signed call rather than the whole Lambda client (see lambda-event-invoker).
 */
const lambdaJobs = <J extends { action: string; ref: { id: string } }>(functionName: string, env: NodeJS.ProcessEnv): AsyncJobs<J> => {
  const invoke = lambdaEventInvoker({ env });
  return { start: (job) => invoke(functionName, job) };
};

/**
 * The local runtime: the same handler, in this process, not awaited (as an asynchronous
 * invocation). Its module path comes from the environment so no bundle ever includes it.
 */
const inProcessJobs = <J extends { action: string; ref: { id: string } }>(modulePath: string): AsyncJobs<J> => {
  let handler: Promise<JobHandler<J>> | undefined;
  return {
    async start(job) {
      handler ??= import(pathToFileURL(modulePath).href).then(
        (module: { handler: JobHandler<J> }) => module.handler,
        (error: unknown) => {
          handler = undefined;
          throw error;
        },
      );
      const run = await handler;
      void run(job).catch((error: unknown) => console.error(`job ${job.action} ${job.ref.id} failed:`, error));
    },
  };
};

/** `names.module`: the local runtime's variable naming the handler module; `names.function`: the deployed function's name. */
export const asyncJobsFromEnvironment = <J extends { action: string; ref: { id: string } }>(
  names: { module: string; function: string },
  env: NodeJS.ProcessEnv = process.env,
): AsyncJobs<J> => {
  const modulePath = env[names.module];
  if (modulePath) return inProcessJobs<J>(modulePath);
  const functionName = env[names.function];
  if (functionName) return lambdaJobs<J>(functionName, env);
  throw new Error(`${names.function} is not set`);
};
