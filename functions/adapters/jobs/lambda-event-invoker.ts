import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/transport';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/**
 * Lambda's `Invoke` with `InvocationType: Event`, as one SigV4-signed HTTPS call built from the
 * pieces every function already bundles for DynamoDB (signer, credential chain, HTTP handler).
 * Starting a job is the only Lambda call the API functions make; the whole `@aws-sdk/client-lambda`
 * (about 120 KB minified, ~1.4× the bundle of a read-only function) bought them nothing else.
 *
 * Same request as the SDK's: `POST /2015-03-31/functions/{name}/invocations` with
 * `X-Amz-Invocation-Type: Event`, answered 202. Throttling, 5xx and network failures are retried
 * (3 attempts, exponential backoff with jitter), as the SDK's standard retry mode does; any other
 * answer throws an error named by `x-amzn-ErrorType` with Lambda's message.
 *
 * Endpoint: `AWS_ENDPOINT_URL_LAMBDA`, else `AWS_ENDPOINT_URL` (the SDK's variables), else the
 * region's public endpoint. Region: `AWS_REGION` (set by Lambda).
 */
export interface LambdaEventInvokerOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Default: the SDK's default chain (the function's role in Lambda). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Between attempts: `baseDelayMs × 2^attempt`, with full jitter. Default 100. */
  baseDelayMs?: number;
}

export type LambdaEventInvoker = (functionName: string, payload: unknown) => Promise<void>;

const apiVersion = '2015-03-31';
const maxAttempts = 3;
const retryableStatus = (status: number): boolean => status === 429 || status >= 500;
/** A connection refused, reset or timed out: worth another attempt (a missing credential is not). */
const isNetworkFailure = (error: unknown): boolean => {
  const { code, name } = error as { code?: unknown; name?: unknown };
  return (typeof code === 'string' && code.startsWith('E')) || name === 'TimeoutError';
};

/** Lambda's answer to a refused invocation: `x-amzn-ErrorType` (`Type:extra` trimmed) and the body's message. */
export class LambdaInvokeError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = errorType;
  }
}

const endpointOf = (env: Readonly<Record<string, string | undefined>>, region: string): URL => {
  const configured = env.AWS_ENDPOINT_URL_LAMBDA?.trim() || env.AWS_ENDPOINT_URL?.trim();
  if (configured) return new URL(configured);
  return new URL(`https://lambda.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
};

const readBody = async (body: unknown): Promise<string> => {
  if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return '';
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

const failureOf = (statusCode: number, headers: Record<string, string>, text: string): LambdaInvokeError => {
  let message = text.trim();
  let type = headers['x-amzn-errortype']?.split(':')[0] ?? '';
  try {
    const parsed = JSON.parse(text) as { message?: unknown; Message?: unknown; Type?: unknown; __type?: unknown };
    const said = parsed.message ?? parsed.Message;
    if (typeof said === 'string') message = said;
    const named = parsed.__type ?? parsed.Type;
    if (!type && typeof named === 'string') type = named;
  } catch {
    // not JSON: the text as sent
  }
  return new LambdaInvokeError(type || `Http${statusCode}`, message || `Lambda answered ${statusCode}`, statusCode);
};

export const lambdaEventInvoker = (options: LambdaEventInvokerOptions = {}): LambdaEventInvoker => {
  const env = options.env ?? process.env;
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1';
  const endpoint = endpointOf(env, region);
  const signer = new SignatureV4({ service: 'lambda', region, credentials: options.credentials ?? defaultProvider(), sha256: Sha256 });
  const http = new NodeHttpHandler({ connectionTimeout: 3_000, requestTimeout: 10_000 });
  const baseDelayMs = options.baseDelayMs ?? 100;
  const basePath = endpoint.pathname.replace(/\/$/, '');

  const attempt = async (functionName: string, body: string): Promise<void> => {
    const request = new HttpRequest({
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path: `${basePath}/${apiVersion}/functions/${encodeURIComponent(functionName)}/invocations`,
      headers: {
        host: endpoint.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-invocation-type': 'Event',
      },
      body,
    });
    const signed = await signer.sign(request);
    const { response } = await http.handle(signed as HttpRequest);
    const text = await readBody(response.body);
    if (response.statusCode === 202) return;
    throw failureOf(response.statusCode, response.headers, text);
  };

  return async (functionName, payload) => {
    const body = JSON.stringify(payload);
    for (let tried = 1; ; tried += 1) {
      try {
        await attempt(functionName, body);
        return;
      } catch (error) {
        const retryable = error instanceof LambdaInvokeError ? retryableStatus(error.statusCode) : isNetworkFailure(error);
        if (!retryable || tried >= maxAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * baseDelayMs * 2 ** tried));
      }
    }
  };
};
