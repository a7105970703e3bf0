import { Logger } from '@aws-lambda-powertools/logger';

let instance: Logger | undefined;

/**
 * Built on the first line logged, not at import: constructing Powertools' Logger opens its own
 * console on stdout and stderr, a few milliseconds of every function's cold start that a request
 * which logs pays once instead (`docs/performance.md`).
 */
const loggerInstance = (): Logger =>
  (instance ??= new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'project-automation-service' }));

type LoggerMethods = Pick<Logger, 'debug' | 'info' | 'warn' | 'error' | 'setCorrelationId' | 'setLogLevel'>;

/**
 * The one logger of every function. Requests are logged by route, status and credential id:
 * never headers, bodies or credential values.
 */
export const logger: LoggerMethods = {
  debug: (input, ...extra) => loggerInstance().debug(input, ...extra),
  info: (input, ...extra) => loggerInstance().info(input, ...extra),
  warn: (input, ...extra) => loggerInstance().warn(input, ...extra),
  error: (input, ...extra) => loggerInstance().error(input, ...extra),
  setCorrelationId: (...args) => loggerInstance().setCorrelationId(...args),
  setLogLevel: (...args) => loggerInstance().setLogLevel(...args),
};
