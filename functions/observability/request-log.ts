import { appendRequestLine } from '../adapters/local/request-log-file';
import type { ApiRequestRecord } from '../core/requests/api-requests';
import { logger } from './logger';

/**
 * The one line an API function writes per request: the API's access log. Authentication runs in
 * the function (API Gateway has no authorizer to tell it the account), so this line, not the
 * stage's access log, is where the account, the credential's hint and the outcome meet. Every API
 * function logs to one log group (`ApiLogs`), which the dashboard's Requests page queries with Logs
 * Insights; the local runtime also appends the line to its own file. No value of a credential,
 * header, query string or body is ever in it.
 */
export const logApiRequest = (
  record:
    ApiRequestRecord | (Omit<ApiRequestRecord, 'account_id' | 'mode' | 'credential_id' | 'credential_hint'> & Partial<ApiRequestRecord>),
  operation: string,
): void => {
  logger.info('api request', { operation, ...record });
  const localFile = process.env.LOCAL_REQUEST_LOG_FILE;
  // Requests no credential was resolved for belong to no account: no page could show them.
  if (localFile && record.account_id) appendRequestLine(localFile, record as ApiRequestRecord);
};
