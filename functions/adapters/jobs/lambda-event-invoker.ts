import { type SignedAwsOptions, signedAwsSender } from '../aws/signed-aws-request';

/**
 * Lambda's `Invoke` with `InvocationType: Event`, as one SigV4-signed call (see signed-aws-request):
 * starting a job is the only Lambda call the API functions make, and the whole
 * `@aws-sdk/client-lambda` (about 120 KB minified, ~1.4× the bundle of a read-only function) bought
 * them nothing else.
 *
 * Same request as the SDK's: `POST /2015-03-31/functions/{name}/invocations` with
 * `X-Amz-Invocation-Type: Event`, answered 202. Endpoint: `AWS_ENDPOINT_URL_LAMBDA`, else
 * `AWS_ENDPOINT_URL`, else the region's.
 */
export type LambdaEventInvokerOptions = SignedAwsOptions;

export type LambdaEventInvoker = (functionName: string, payload: unknown) => Promise<void>;

const apiVersion = '2015-03-31';

export const lambdaEventInvoker = (options: LambdaEventInvokerOptions = {}): LambdaEventInvoker => {
  const send = signedAwsSender({ signingName: 'lambda', endpointId: 'LAMBDA' }, options);
  return async (functionName, payload) => {
    await send({
      path: `/${apiVersion}/functions/${encodeURIComponent(functionName)}/invocations`,
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify(payload),
      expectStatus: 202,
    });
  };
};
