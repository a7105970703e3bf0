import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * X-Ray subsegments for the AWS SDK clients of the workers and stage functions (active tracing is
 * on for every function; the runtime traces each invocation without this). The API functions do
 * not load it: it adds the X-Ray SDK to their cold start (measured by `npm run bench`, README
 * "Metrics and traces"). Off outside Lambda.
 */
export const tracer = new Tracer({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'project-automation-service',
  enabled: Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) && process.env.POWERTOOLS_TRACE_ENABLED !== 'false',
});

/** The client, its calls traced as subsegments when tracing is on. */
export const traced = <T>(client: T): T => (tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client);

/** The table of a worker or stage function, its calls traced. */
export const tracedTable = <T extends { client: unknown }>(table: T): T => ({ ...table, client: traced(table.client) });
