import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one logger of every function. Requests are logged by route, status and credential id:
 * never headers, bodies or credential values.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'project-automation-service' });
