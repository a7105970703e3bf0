import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { RequestLogReader } from '../core/requests/api-requests';
import { insightsRequestLogReader } from './cloudwatch/insights-request-log';
import { fileRequestLogReader } from './local/request-log-file';

let reader: RequestLogReader | undefined;

/**
 * The API's request log of this deployment: the API functions' log group through Logs Insights in
 * AWS (`API_LOG_GROUP`), the local runtime's own file locally (`LOCAL_REQUEST_LOG_FILE`).
 */
export const requestLogReaderFromEnvironment = (): RequestLogReader => {
  if (reader) return reader;
  const logGroupName = process.env.API_LOG_GROUP;
  const localFile = process.env.LOCAL_REQUEST_LOG_FILE;
  if (logGroupName) reader = insightsRequestLogReader({ client: new CloudWatchLogsClient({}), logGroupName });
  else if (localFile) reader = fileRequestLogReader(localFile);
  else throw new Error('No request log: API_LOG_GROUP (AWS) or LOCAL_REQUEST_LOG_FILE (the local runtime) must be set.');
  return reader;
};
