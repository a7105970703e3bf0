import { lambdaEventInvoker } from '../../../functions/adapters/jobs/lambda-event-invoker';
import { AwsServiceError } from '../../../functions/adapters/aws/signed-aws-request';
import { startAwsEndpointServer, testCredentials as credentials, verifiedSignature } from '../fakes/aws-endpoint-server';

const job = { action: 'scan', ref: { id: 'scan_01JD2Q8X4B6V3C1N0M9K8J7H6G' } };

describe('lambdaEventInvoker', () => {
  it("sends Lambda's Invoke (Event) for the function with the job as JSON, signed with SigV4 for lambda in the region", async () => {
    const server = await startAwsEndpointServer();
    try {
      const invoke = lambdaEventInvoker({ env: { AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_LAMBDA: server.endpoint }, credentials });
      const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:svc-SecurityJobs';
      await invoke(arn, job);

      expect(server.received).toHaveLength(1);
      const [request] = server.received;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe(`/2015-03-31/functions/${encodeURIComponent(arn)}/invocations`);
      expect(request?.headers['x-amz-invocation-type']).toBe('Event');
      expect(JSON.parse(request?.body ?? '')).toEqual(job);

      // The signature is the one SigV4 gives the same request: Lambda would accept it.
      const signedHeaders = await verifiedSignature(request!, { service: 'lambda', region: 'eu-west-1' });
      expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-invocation-type']));
    } finally {
      await server.close();
    }
  });

  it("throws Lambda's error type and message on a refusal, without retrying it", async () => {
    const server = await startAwsEndpointServer([
      {
        status: 404,
        headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException:http://internal.amazon.com/', 'content-type': 'application/json' },
        body: JSON.stringify({ Type: 'User', message: 'Function not found: arn:aws:lambda:us-east-1:123456789012:function:gone' }),
      },
    ]);
    try {
      const invoke = lambdaEventInvoker({ env: { AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL: server.endpoint }, credentials });
      const failure = await invoke('gone', job).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AwsServiceError);
      expect(failure).toMatchObject({
        name: 'ResourceNotFoundException',
        statusCode: 404,
        message: expect.stringContaining('Function not found'),
      });
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('retries throttling and server errors, up to 3 attempts in all', async () => {
    const throttled = { status: 429, headers: { 'x-amzn-ErrorType': 'TooManyRequestsException' }, body: '{"message":"Rate exceeded"}' };
    const recovers = await startAwsEndpointServer([throttled, { status: 503 }, { status: 202 }]);
    const never = await startAwsEndpointServer([throttled]);
    try {
      const env = { AWS_REGION: 'us-east-1' };
      await lambdaEventInvoker({ env: { ...env, AWS_ENDPOINT_URL_LAMBDA: recovers.endpoint }, credentials, baseDelayMs: 1 })('fn', job);
      expect(recovers.received).toHaveLength(3);

      const invoke = lambdaEventInvoker({ env: { ...env, AWS_ENDPOINT_URL_LAMBDA: never.endpoint }, credentials, baseDelayMs: 1 });
      await expect(invoke('fn', job)).rejects.toMatchObject({ name: 'TooManyRequestsException', message: 'Rate exceeded' });
      expect(never.received).toHaveLength(3);
    } finally {
      await recovers.close();
      await never.close();
    }
  });
});
