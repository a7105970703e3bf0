import { type AwsService, type SignedAwsOptions, signedAwsSender } from './signed-aws-request';

/**
 * An operation of an AWS JSON 1.0 service (Step Functions, SQS) as one signed call: `POST /` with
 * the operation in `X-Amz-Target`, the input as the JSON body, the output parsed from the answer.
 * Errors, retries and the endpoint are signed-aws-request's.
 */
export type AwsJsonCall = <Output = Record<string, unknown>>(operation: string, input: Record<string, unknown>) => Promise<Output>;

export interface AwsJsonService extends AwsService {
  /** `AWSStepFunctions`, `AmazonSQS`: the part of `X-Amz-Target` before the operation. */
  targetPrefix: string;
  /** SQS moved from the query protocol and asks JSON callers to say so (`x-amzn-query-mode`), as its SDK does. */
  queryCompatible?: boolean;
}

export const awsJsonCall = (service: AwsJsonService, options: SignedAwsOptions = {}): AwsJsonCall => {
  const send = signedAwsSender(service, options);
  return async <Output>(operation: string, input: Record<string, unknown>): Promise<Output> => {
    const { text } = await send({
      path: '/',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${service.targetPrefix}.${operation}`,
        ...(service.queryCompatible ? { 'x-amzn-query-mode': 'true' } : {}),
      },
      body: JSON.stringify(input),
      expectStatus: 200,
    });
    return (text.trim() === '' ? {} : JSON.parse(text)) as Output;
  };
};
