import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { HttpRequest } from '@smithy/core/transport';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/**
 * One SigV4-signed HTTPS call to an AWS service, built from the pieces every function already
 * bundles for DynamoDB (signer, credential chain, HTTP handler, the SDK's error classification).
 * The API functions make one or two calls each to Lambda, Step Functions and SQS; a whole service
 * client (20–120 KB minified each) bought them nothing else.
 *
 * Throttling, 5xx and network failures are retried (3 attempts in all, exponential backoff with
 * full jitter), as the SDK's standard retry mode decides; any other answer throws an
 * `AwsServiceError` named by the service's error type, with its message.
 *
 * Endpoint: `AWS_ENDPOINT_URL_<SERVICE ID>`, else `AWS_ENDPOINT_URL` (the SDK's variables), else
 * the caller's default, else the region's public endpoint. Region: `AWS_REGION` (set by Lambda).
 */
export interface SignedAwsOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Default: the SDK's default chain (the function's role in Lambda). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Between attempts: `baseDelayMs × 2^attempt`, with full jitter. Default 100. */
  baseDelayMs?: number;
}

export interface AwsService {
  /** The SigV4 signing name: `lambda`, `states`, `sqs`. */
  signingName: string;
  /** The SDK's service id in `AWS_ENDPOINT_URL_<ID>`: `LAMBDA`, `SFN`, `SQS`. */
  endpointId: string;
  /** Where to send when no endpoint variable is set (SQS: the queue URL's origin). Default: the regional endpoint. */
  defaultEndpoint?: string;
}

export interface SignedAwsRequest {
  /** The path after the endpoint's own (which is usually `/`). */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The status of a successful answer: 200 for JSON protocols, 202 for Lambda's Event invocation. */
  expectStatus: number;
}

export interface SignedAwsAnswer {
  statusCode: number;
  headers: Record<string, string>;
  text: string;
}

export type SignedAwsSender = (request: SignedAwsRequest) => Promise<SignedAwsAnswer>;

const maxAttempts = 3;

/** A service's refusal: its error type (`ExecutionAlreadyExists`, `ThrottlingException`) and message. */
export class AwsServiceError extends Error {
  /** As the SDK's errors carry it, so that its retry classification reads this error too. */
  readonly $metadata: { httpStatusCode: number };

  constructor(
    readonly errorType: string,
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = errorType;
    this.$metadata = { httpStatusCode: statusCode };
  }
}

/** Whether `error` is the service's refusal of this type (as `instanceof ExecutionAlreadyExists` with the SDK). */
export const isAwsServiceError = (error: unknown, errorType: string): error is AwsServiceError =>
  error instanceof AwsServiceError && error.errorType === errorType;

/** Whether the SDK's standard retry mode would try again: throttling, 5xx, timeouts and dropped connections. */
const isRetryable = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const sdkError = error as Parameters<typeof isTransientError>[0];
  return isThrottlingError(sdkError) || isTransientError(sdkError) || isServerError(sdkError);
};

export const regionOf = (env: Readonly<Record<string, string | undefined>>): string =>
  env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1';

const endpointOf = (service: AwsService, env: Readonly<Record<string, string | undefined>>, region: string): URL => {
  const configured = env[`AWS_ENDPOINT_URL_${service.endpointId}`]?.trim() || env.AWS_ENDPOINT_URL?.trim() || service.defaultEndpoint;
  if (configured) return new URL(configured);
  return new URL(`https://${service.signingName}.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`);
};

const readBody = async (body: unknown): Promise<string> => {
  if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return '';
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * The error type as the SDK reads it: the `x-amzn-ErrorType` header, else the body's `__type` or
 * `code`, trimmed of a `:…` suffix and a `namespace#` prefix.
 */
const failureOf = ({ statusCode, headers, text }: SignedAwsAnswer): AwsServiceError => {
  let message = text.trim();
  let type: unknown = headers['x-amzn-errortype'];
  try {
    const parsed = JSON.parse(text) as { message?: unknown; Message?: unknown; __type?: unknown; code?: unknown; Type?: unknown };
    const said = parsed.message ?? parsed.Message;
    if (typeof said === 'string') message = said;
    type ??= parsed.__type ?? parsed.code;
  } catch {
    // not JSON: the text as sent
  }
  const name = typeof type === 'string' ? (type.split(':')[0] ?? '').split('#').at(-1) : undefined;
  return new AwsServiceError(name || `Http${statusCode}`, message || `${statusCode} from the service`, statusCode);
};

interface Connection {
  endpoint: URL;
  basePath: string;
  signer: SignatureV4;
  http: NodeHttpHandler;
}

/** Endpoint, signer and HTTP handler, made on the first call: nothing is read or built while the function loads. */
const connect = (service: AwsService, options: SignedAwsOptions): Connection => {
  const env = options.env ?? process.env;
  const region = regionOf(env);
  const endpoint = endpointOf(service, env, region);
  return {
    endpoint,
    basePath: endpoint.pathname.replace(/\/$/, ''),
    signer: new SignatureV4({
      service: service.signingName,
      region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: Sha256,
    }),
    http: new NodeHttpHandler({ connectionTimeout: 3_000, requestTimeout: 10_000 }),
  };
};

export const signedAwsSender = (service: AwsService, options: SignedAwsOptions = {}): SignedAwsSender => {
  const baseDelayMs = options.baseDelayMs ?? 100;
  let connection: Connection | undefined;

  const attempt = async ({ path, headers, body, expectStatus }: SignedAwsRequest): Promise<SignedAwsAnswer> => {
    const { endpoint, basePath, signer, http } = (connection ??= connect(service, options));
    const request = new HttpRequest({
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path: `${basePath}${path}`,
      headers: { host: endpoint.host, 'content-length': String(Buffer.byteLength(body)), ...headers },
      body,
    });
    const signed = await signer.sign(request);
    const { response } = await http.handle(signed as HttpRequest);
    const answer = { statusCode: response.statusCode, headers: response.headers, text: await readBody(response.body) };
    if (answer.statusCode === expectStatus) return answer;
    throw failureOf(answer);
  };

  return async (request) => {
    for (let tried = 1; ; tried += 1) {
      try {
        return await attempt(request);
      } catch (error) {
        if (!isRetryable(error) || tried >= maxAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * baseDelayMs * 2 ** tried));
      }
    }
  };
};
