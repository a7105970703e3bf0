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
  /** S3 signs the path as sent (`false`); every other service escapes it once more (the default). */
  uriEscapePath?: boolean;
}

export interface SignedAwsRequest {
  /** Default POST (the JSON and query protocols); GET to read an S3 object. */
  method?: 'GET' | 'POST';
  /** The path after the endpoint's own (which is usually `/`). */
  path: string;
  headers: Record<string, string>;
  /** Absent for a GET. */
  body?: string;
  /** The status of a successful answer: 200 for JSON protocols, 202 for Lambda's Event invocation. */
  expectStatus: number;
}

export interface SignedAwsAnswer {
  statusCode: number;
  headers: Record<string, string>;
  /** The body as sent (an S3 object's bytes). */
  bytes: Buffer;
  /** The body read as UTF-8 (the JSON and XML answers). */
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

const readBody = async (body: unknown): Promise<Buffer> => {
  if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

/**
 * The error type as the SDK reads it: the `x-amzn-ErrorType` header, else the body's `__type` or
 * `code` (S3's `<Code>`), trimmed of a `:…` suffix and a `namespace#` prefix.
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
    // Not JSON: S3's XML (`<Error><Code>AccessDenied</Code><Message>…`), else the text as sent.
    const xml = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1];
    type ??= xml('Code');
    message = xml('Message') ?? message;
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
      uriEscapePath: service.uriEscapePath ?? true,
    }),
    http: new NodeHttpHandler({ connectionTimeout: 3_000, requestTimeout: 10_000 }),
  };
};

export const signedAwsSender = (service: AwsService, options: SignedAwsOptions = {}): SignedAwsSender => {
  const baseDelayMs = options.baseDelayMs ?? 100;
  let connection: Connection | undefined;

  const attempt = async ({ method = 'POST', path, headers, body, expectStatus }: SignedAwsRequest): Promise<SignedAwsAnswer> => {
    const { endpoint, basePath, signer, http } = (connection ??= connect(service, options));
    const request = new HttpRequest({
      method,
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path: `${basePath}${path}`,
      headers: { host: endpoint.host, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const signed = await signer.sign(request);
    const { response } = await http.handle(signed as HttpRequest);
    const bytes = await readBody(response.body);
    const answer = { statusCode: response.statusCode, headers: response.headers, bytes, text: bytes.toString('utf8') };
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
