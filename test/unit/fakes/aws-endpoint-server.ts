import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/transport';
import { SignatureV4 } from '@smithy/signature-v4';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * A stand-in for an AWS service endpoint (Lambda's Invoke, Step Functions, SQS) on 127.0.0.1:
 * records every request and answers from `answers` in turn (the last one repeats), or with what
 * `answers` returns for the request.
 */
export const startAwsEndpointServer = async (answers: Answer[] | ((request: ReceivedRequest) => Answer) = [{ status: 202 }]) => {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(recorded);
      const answer =
        typeof answers === 'function' ? answers(recorded) : (answers[Math.min(received.length - 1, answers.length - 1)] ?? { status: 202 });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

export const testCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

/** x-amz-date (20261124T130000Z) as a Date. */
const dateOf = (amzDate: string): Date => new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));

/**
 * The request's SigV4 signature, checked by signing the same request again with the same
 * credentials and time: what the service would accept. Returns the names of the signed headers.
 */
export const verifiedSignature = async (
  request: ReceivedRequest,
  scope: { service: string; region: string; credentials?: typeof testCredentials },
): Promise<string[]> => {
  const authorization = String(request.headers.authorization);
  const credentials = scope.credentials ?? testCredentials;
  const prefix = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/`;
  if (!authorization.startsWith(prefix)) throw new Error(`not signed with SigV4 by ${credentials.accessKeyId}: ${authorization}`);
  if (!authorization.includes(`/${scope.region}/${scope.service}/aws4_request, SignedHeaders=`)) {
    throw new Error(`not signed for ${scope.service} in ${scope.region}: ${authorization}`);
  }
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name])]));
  const resigned = await new SignatureV4({ service: scope.service, region: scope.region, credentials, sha256: Sha256 }).sign(
    new HttpRequest({ method: request.method, protocol: 'http:', hostname: '127.0.0.1', path: request.path, headers, body: request.body }),
    { signingDate: dateOf(String(request.headers['x-amz-date'])) },
  );
  if (resigned.headers.authorization !== authorization) throw new Error('the signature does not match the request');
  return signedHeaders;
};
