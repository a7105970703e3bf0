import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/transport';
import { SignatureV4 } from '@smithy/signature-v4';
import { LambdaInvokeError, lambdaEventInvoker } from '../../../functions/adapters/jobs/lambda-event-invoker';
import { startLambdaInvokeServer } from './lambda-invoke-server';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const job = { action: 'scan', ref: { id: 'scan_01JD2Q8X4B6V3C1N0M9K8J7H6G' } };

/** x-amz-date (20261124T130000Z) as a Date. */
const dateOf = (amzDate: string): Date => new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

describe('lambdaEventInvoker', () => {
  it("sends Lambda's Invoke (Event) for the function with the job as JSON, signed with SigV4 for lambda in the region", async () => {
    const server = await startLambdaInvokeServer();
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
      const authorization = String(request?.headers.authorization);
      expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/lambda\/aws4_request, SignedHeaders=/);
      const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
      expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-invocation-type']));
      const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request?.headers[name])]));
      const resigned = await new SignatureV4({ service: 'lambda', region: 'eu-west-1', credentials, sha256: Sha256 }).sign(
        new HttpRequest({
          method: 'POST',
          protocol: 'http:',
          hostname: '127.0.0.1',
          path: `/2015-03-31/functions/${encodeURIComponent(arn)}/invocations`,
          headers,
          body: request?.body,
        }),
        { signingDate: dateOf(String(request?.headers['x-amz-date'])) },
      );
      expect(resigned.headers.authorization).toBe(authorization);
    } finally {
      await server.close();
    }
  });

  it("throws Lambda's error type and message on a refusal, without retrying it", async () => {
    const server = await startLambdaInvokeServer([
      {
        status: 404,
        headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException:http://internal.amazon.com/', 'content-type': 'application/json' },
        body: JSON.stringify({ Type: 'User', message: 'Function not found: arn:aws:lambda:us-east-1:123456789012:function:gone' }),
      },
    ]);
    try {
      const invoke = lambdaEventInvoker({ env: { AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL: server.endpoint }, credentials });
      const failure = await invoke('gone', job).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(LambdaInvokeError);
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
    const recovers = await startLambdaInvokeServer([throttled, { status: 503 }, { status: 202 }]);
    const never = await startLambdaInvokeServer([throttled]);
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
