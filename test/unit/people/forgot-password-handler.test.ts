import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { newSecretToken } from '../../../functions/core/secret-token';
import { type ReceivedRequest, startAwsEndpointServer, testCredentials } from '../fakes/aws-endpoint-server';
import { apiEvent } from '../fakes/api-gateway-event';

/**
 * POST /dashboard/forgot-password, the real function, against a stand-in for DynamoDB's and SES's
 * endpoints on 127.0.0.1 that knows one user (alice@acme.test): what the page does while it
 * answers must not depend on whether a user has the address, or its time would tell.
 */

const tableName = 'forgot-password-test';
const user = {
  id: 'usr_01JD0000000000000000000000',
  email: 'alice@acme.test',
  password_hash: null,
  totp_secret: null,
  totp_enabled_at: null,
  recovery_code_hashes: [],
  totp_last_step: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  revision: 1,
};

type Json = Record<string, unknown>;

/** The item DynamoDB would hold under `pk`, if any: the user and their e-mail's item. */
const storedItem = (pk: string): Json | undefined =>
  pk === `USER_EMAIL#${user.email}`
    ? { pk, sk: 'USER_EMAIL', entity: 'user_email', user_id: user.id }
    : pk === `USER#${user.id}`
      ? { pk, sk: 'USER', entity: 'user', ...user }
      : undefined;

const answerOf = (request: ReceivedRequest) => {
  const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1];
  if (!operation) return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"MessageId":"sent-1"}' };
  const body = JSON.parse(request.body) as Json;
  const json = (value: unknown) => ({
    status: 200,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify(value),
  });
  if (operation === 'GetItem') {
    const item = storedItem(unmarshall(body.Key as never).pk as string);
    return json(item ? { Item: marshall(item) } : {});
  }
  if (operation === 'BatchGetItem') return json({ Responses: { [tableName]: [] }, UnprocessedKeys: {} });
  if (operation === 'Query') return json({ Items: [], Count: 0 });
  return json({});
};

/** `Operation LABEL…`: what a request did to which kind of item (the label of each key it names, in order). */
const shapeOf = (request: ReceivedRequest): string => {
  const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1];
  if (!operation) return `SES ${request.method} ${request.path}`;
  const labels: string[] = [];
  JSON.stringify(JSON.parse(request.body), (key, value: unknown) => {
    if (key === 'pk' && value && typeof value === 'object' && 'S' in value) labels.push(String((value as { S: string }).S).split('#')[0]!);
    return value;
  });
  return `${operation} ${labels.join(' ')}`;
};

describe('POST /dashboard/forgot-password', () => {
  const saved = { ...process.env };
  let server: Awaited<ReturnType<typeof startAwsEndpointServer>>;
  let handler: (typeof import('../../../functions/handlers/dashboard/forgot-password'))['handler'];

  beforeAll(async () => {
    server = await startAwsEndpointServer(answerOf);
    Object.assign(process.env, {
      TABLE_NAME: tableName,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: server.endpoint,
      AWS_ENDPOINT_URL_SESV2: server.endpoint,
      NOTIFICATION_SENDER: 'webhooks@acme.test',
      PUBLIC_ORIGIN: server.endpoint,
    });
    for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE', 'LOCAL_OUTBOX_DIR', 'AWS_ENDPOINT_URL']) delete process.env[name];
    ({ handler } = await import('../../../functions/handlers/dashboard/forgot-password'));
  });

  afterAll(async () => {
    await server.close();
    process.env = saved;
  });

  /** The answer to a request for `email`, and the calls the function made to AWS meanwhile. */
  const ask = async (email: string) => {
    const from = server.received.length;
    const csrf = newSecretToken();
    const response = await handler(
      apiEvent({
        method: 'POST',
        path: '/dashboard/forgot-password',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrf=${csrf}` },
        raw: new URLSearchParams({ csrf_token: csrf, email }).toString(),
      }),
    );
    return { response, calls: server.received.slice(from).map(shapeOf) };
  };

  it('does the same table operations for an address with a user and one without, and sends no e-mail while the page waits', async () => {
    const registered = await ask(user.email);
    const unregistered = await ask('nobody@acme.test');
    for (const { response } of [registered, unregistered]) {
      expect(typeof response === 'object' && [response.statusCode, response.headers?.location ?? response.headers?.Location]).toEqual([
        303,
        '/dashboard/forgot-password?sent=1',
      ]);
    }
    expect(registered.calls).toEqual(unregistered.calls);
    // The throttle (read, then counted) and the request's item: no user read, no link, no mail.
    expect(registered.calls).toEqual(['BatchGetItem THROTTLE', 'PutItem THROTTLE', 'PutItem RESET_REQUEST']);
    expect(server.received.some((request) => !request.headers['x-amz-target'])).toBe(false);
  });
});
