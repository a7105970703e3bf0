import { type AwsJsonCall, awsJsonCall } from './aws-json-call';
import type { SignedAwsOptions } from './signed-aws-request';

/**
 * Step Functions' API (AWS JSON 1.0, `AWSStepFunctions.<Operation>`) as signed calls, for the two
 * operations the API functions make (StartExecution, StopExecution) without `@aws-sdk/client-sfn`.
 * Endpoint: `AWS_ENDPOINT_URL_SFN` (the local runtime's in-process Step Functions), else the region's.
 */
export const stepFunctionsCall = (options: SignedAwsOptions = {}): AwsJsonCall =>
  awsJsonCall({ signingName: 'states', endpointId: 'SFN', targetPrefix: 'AWSStepFunctions' }, options);
