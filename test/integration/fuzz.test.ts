import fc from 'fast-check';
import { allScopes, readScopes } from '../../functions/core/credentials/scopes';
import { contractProblems } from './support/contract';
import { call, type ApiAnswer } from './support/http';
import { answerConsent, oauthApp, registerApp } from './support/oauth-app';
import { startReceiver, type Receiver } from './support/receiver';
import { newAccount } from './support/runtime';
import { valueOf, wrongTypeFor, type JsonSchema, type Overrides } from './support/schema-arbitrary';
import { newPerson, webClient } from './support/web-client';
import { fixtureRepository } from './support/workflows';

/**
 * The fuzz tier: every operation of the document the runtime serves, called with requests
 * generated from its own schemas (valid ones, and valid ones with one thing broken) by every kind
 * of credential. Whatever is sent, the answer is never a 5xx, its status is declared, its body
 * is valid against its schema, and an error is the envelope with `X-Request-Id`.
 *
 * Bounded: FUZZ_RUNS requests of each kind per operation (default 15). Reproducible: a failure
 * prints fast-check's seed; `FUZZ_SEED=<seed> npm test -- --selectProjects integration -- fuzz`
 * replays it.
 *
 * Nothing generated reaches past 127.0.0.1: webhook URLs are a receiver this test starts (or a
 * closed loopback port), repositories the local fixture, and operations that start long jobs
 * (workflows, scans, deployments, test runs, reviews) get only project, test and finding ids that
 * do not exist, so they are refused before any job starts.
 */

type Operation = { method: string; template: string; spec: JsonSchema };

const runs = Number(process.env.FUZZ_RUNS ?? 15);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x100000000)) | 0;

/** Operations that start work with the project's repository or AI; given only ids that do not exist. */
const startsJobs = new Set([
  'POST /v1/workflows',
  'POST /v1/security/scans',
  'POST /v1/security/findings/{id}/remediate',
  'POST /v1/deployments',
  'POST /v1/deployments/{id}/rollback',
  'POST /v1/tests/generate',
  'POST /v1/tests/run',
  'POST /v1/reviews',
]);

/** The id prefix of the resource a path segment names. */
const prefixOf: Record<string, string[]> = {
  projects: ['proj_'],
  workflows: ['wf_'],
  scans: ['scan_'],
  findings: ['fnd_'],
  deployments: ['dep_'],
  tests: ['test_', 'run_'],
  reviews: ['rev_'],
  events: ['evt_'],
  webhooks: ['wh_'],
  deliveries: ['dlv_'],
};

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A well-formed id no one has: its prefix and a ULID of random characters. */
const unknownId = (prefix: string) =>
  fc.array(fc.constantFrom(...crockford), { minLength: 26, maxLength: 26 }).map((chars) => `${prefix}${chars.join('')}`);

type Credential = { kind: string; headers: Record<string, string> };

/** The document the runtime serves, read before the tests are declared so each operation is a test of its own. */
const document: JsonSchema = (await call('GET', '/openapi.json', { unchecked: true })).body;
const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, JsonSchema>>).flatMap(
  ([template, methods]) => Object.entries(methods).map(([method, spec]) => ({ method: method.toUpperCase(), template, spec })),
);

let credentials: Credential[];
let receiver: Receiver;
let repository: string;
/** Every status seen, by operation: the summary shows the fuzz reached past authentication and validation. */
const seen = new Map<string, Map<number, number>>();
/** Ids that exist in the test key's account, by prefix. */
const existing = new Map<string, string[]>();

/** An OAuth access token with every scope, granted by an admin through sign-in and consent, as an application gets one. */
const oauthAccessToken = async (): Promise<string> => {
  const redirectUri = 'https://app.example.com/oauth/callback';
  const person = await newPerson();
  const browser = webClient();
  await browser.signIn(person.email, person.password);
  const app = await oauthApp(await registerApp(redirectUri), redirectUri);
  const pending = await app.start(allScopes.join(' '));
  const { redirect } = await answerConsent(browser, pending.url);
  return (await app.finish(redirect, pending)).access_token;
};

beforeAll(async () => {
  receiver = await startReceiver();
  repository = (await fixtureRepository()).url;
  const account = await newAccount();
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  credentials = [
    { kind: 'live key', headers: bearer(account.live.key) },
    { kind: 'test key', headers: bearer(account.test.key) },
    { kind: 'read-only key', headers: bearer((await account.newKey('ro', readScopes)).key) },
    { kind: 'personal access token', headers: { 'X-API-Key': (await account.newKey('pat')).key } },
    { kind: 'OAuth token', headers: bearer(await oauthAccessToken()) },
    { kind: 'no credential', headers: {} },
    { kind: 'unknown key', headers: bearer('svc_test_0000000000000000000000000000000000000000') },
  ];
  const test = { Authorization: `Bearer ${account.test.key}` };
  const project = await call('POST', '/projects', { json: { name: 'Fuzzed', repository }, headers: test });
  const webhook = await call('POST', '/webhooks', { json: { url: receiver.url(), events: ['*'] }, headers: test });
  existing.set('proj_', [project.body.data.id]);
  existing.set('wh_', [webhook.body.data.id]);
  const events = await call('GET', '/events?per_page=5', { headers: test });
  existing.set(
    'evt_',
    events.body.data.map((event: { id: string }) => event.id),
  );
});

afterAll(async () => {
  await receiver?.close();
  const lines = [...seen].map(([operation, statuses]) => `${operation}: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  console.log(`fuzz (seed ${seed}, ${runs} runs of each kind per operation):\n${lines.join('\n')}`);
});

/**
 * A path segment no URL can carry: "." and ".." (which `encodeURIComponent` leaves as they are) are
 * dot-segments, removed by the URL standard before the request is sent: `/deliveries/./redeliver`
 * reaches the server as `/deliveries/redeliver`, another operation.
 */
const isDotSegment = (value: string): boolean => value === '.' || value === '..';

/** Values for path parameter `name` of `template`: ids that exist, well-formed unknown ids, and anything else a URL can carry. */
const pathValue = (operation: Operation, name: string): fc.Arbitrary<string> => {
  const segments = operation.template.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
  const prefixes = prefixOf[collection] ?? ['x_'];
  const known = startsJobs.has(`${operation.method} ${operation.template}`) ? [] : prefixes.flatMap((p) => existing.get(p) ?? []);
  return fc.oneof(
    ...(known.length > 0 ? [fc.constantFrom(...known)] : []),
    fc.constantFrom(...prefixes).chain(unknownId),
    fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((value) => !isDotSegment(value)),
  );
};

/** Properties whose generated values could reach the network, or start a job: the caller's values instead. */
const overridesFor = (operation: Operation): Overrides => {
  const jobs = startsJobs.has(`${operation.method} ${operation.template}`);
  return {
    url: fc.constantFrom(receiver.url(), receiver.url('/other'), 'https://127.0.0.1:1/hook', 'http://[::1]:1/hook'),
    repository: fc.constantFrom(repository, 'https://127.0.0.1:1/repo.git'),
    ...(jobs ? { project_id: unknownId('proj_'), test_id: fc.constantFrom('test_', 'run_').chain(unknownId) } : {}),
  };
};

interface Request {
  path: string;
  query: Record<string, string>;
  body?: unknown;
  raw?: string;
}

const parametersOf = (operation: Operation, where: 'query' | 'path'): JsonSchema[] =>
  (operation.spec.parameters ?? []).filter((parameter: JsonSchema) => parameter.in === where);

const bodySchemaOf = (operation: Operation): JsonSchema | undefined => operation.spec.requestBody?.content?.['application/json']?.schema;

/** A request the document says is valid (query and body); ids may or may not exist. */
const validRequest = (operation: Operation): fc.Arbitrary<Request> => {
  const overrides = overridesFor(operation);
  const pathParameters = Object.fromEntries(
    parametersOf(operation, 'path').map((parameter) => [parameter.name, pathValue(operation, parameter.name)]),
  );
  const query = Object.fromEntries(
    parametersOf(operation, 'query').map((parameter) => [
      parameter.name,
      (overrides[parameter.name] ?? valueOf(parameter.schema, overrides)).map(String),
    ]),
  );
  const requiredQuery = parametersOf(operation, 'query')
    .filter((parameter) => parameter.required)
    .map((parameter) => parameter.name);
  const body = bodySchemaOf(operation);
  return fc.record({
    path: fc
      .record(pathParameters)
      .map((values) =>
        operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent((values as Record<string, string>)[name] ?? '')),
      ),
    query: fc.record(query, { requiredKeys: requiredQuery }) as fc.Arbitrary<Record<string, string>>,
    ...(body ? { body: valueOf(body, overrides) } : {}),
  });
};

type Mutation = (request: Request) => fc.Arbitrary<Request>;

/** Ways to break a valid request of `operation`, each something the document refuses. */
const mutationsOf = (operation: Operation): Mutation[] => {
  const mutations: Mutation[] = [(request) => fc.constant({ ...request, query: { ...request.query, fuzz_unknown: 'x' } })];
  for (const parameter of parametersOf(operation, 'query')) {
    const schema = parameter.schema as JsonSchema;
    const bad =
      schema.type === 'integer'
        ? ['abc', '1.5', '-1', '99999999999']
        : schema.enum
          ? ['not-a-choice']
          : schema.format
            ? ['2026-02-30T00:00:00Z', '2026-02-30', 'yesterday']
            : schema.pattern
              ? ['!!', '%', 'evt_short'].filter((value) => !new RegExp(schema.pattern, 'u').test(value))
              : [];
    if (bad.length > 0)
      mutations.push((request) =>
        fc.constantFrom(...bad).map((value) => ({ ...request, query: { ...request.query, [parameter.name]: value } })),
      );
  }
  const body = bodySchemaOf(operation);
  if (body) {
    mutations.push((request) => fc.constantFrom('{"name":', '[1,', 'not json').map((raw) => ({ ...request, body: undefined, raw })));
    mutations.push((request) => fc.constantFrom<unknown>([], 'text', 42, null, true).map((value) => ({ ...request, body: value })));
    const properties = Object.entries((body.properties ?? {}) as Record<string, JsonSchema>);
    if (properties.length > 0)
      mutations.push((request) =>
        fc
          .constantFrom(...properties)
          .chain(([name, schema]) =>
            wrongTypeFor(schema).map((value) => ({ ...request, body: { ...(request.body as object), [name]: value } })),
          ),
      );
    for (const name of body.required ?? [])
      mutations.push((request) => {
        const { [name]: _dropped, ...rest } = request.body as Record<string, unknown>;
        return fc.constant({ ...request, body: rest });
      });
    if (body.additionalProperties === false)
      mutations.push((request) => fc.constant({ ...request, body: { ...(request.body as object), fuzz_unknown: 1 } }));
  }
  return mutations;
};

const invalidRequest = (operation: Operation): fc.Arbitrary<Request> => {
  const mutations = mutationsOf(operation);
  return validRequest(operation).chain((request) => fc.constantFrom(...mutations).chain((mutate) => mutate(request)));
};

const send = async (operation: Operation, request: Request, credential: Credential): Promise<ApiAnswer> => {
  const query = new URLSearchParams(request.query).toString();
  const path = `${request.path.replace(/^\/v1/, '')}${query ? `?${query}` : ''}`;
  const headers = { ...credential.headers, ...(request.raw !== undefined ? { 'Content-Type': 'application/json' } : {}) };
  return call(operation.method, path, {
    headers,
    ...(request.raw !== undefined ? { raw: request.raw } : request.body !== undefined ? { json: request.body } : {}),
    unchecked: true,
  });
};

/** What is wrong with `answer` to `request`; empty when it is what the document promises. */
const problemsOf = async (operation: Operation, answer: ApiAnswer, expectRefusal: boolean): Promise<string[]> => {
  const problems = await contractProblems(operation.method, operation.template, answer);
  if (answer.status >= 500) problems.push(`answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (!answer.headers.get('x-request-id')) problems.push('no X-Request-Id');
  if (expectRefusal && answer.status < 400) problems.push(`an invalid request was accepted with ${answer.status}`);
  return problems;
};

const fuzz = (operation: Operation, kind: 'valid' | 'invalid') =>
  fc.assert(
    fc.asyncProperty(
      kind === 'valid' ? validRequest(operation) : invalidRequest(operation),
      fc.constantFrom(...credentials),
      async (request, credential) => {
        const answer = await send(operation, request, credential);
        const statuses = seen.get(`${operation.method} ${operation.template}`) ?? new Map<number, number>();
        seen.set(`${operation.method} ${operation.template}`, statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1));
        const problems = await problemsOf(operation, answer, kind === 'invalid');
        if (problems.length > 0) {
          throw new Error(
            `${operation.method} ${request.path} as ${credential.kind} (${JSON.stringify({ query: request.query, body: request.body, raw: request.raw })}):\n  ${problems.join('\n  ')}`,
          );
        }
      },
    ),
    { numRuns: runs, seed, endOnFailure: true },
  );

describe('every operation of the served document, fuzzed by every kind of credential: no 5xx, statuses declared, bodies valid', () => {
  it('the document has every operation', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.template}`, operation] as const))(
    '%s: valid requests and requests with one thing broken',
    async (_name, operation) => {
      await fuzz(operation, 'valid');
      await fuzz(operation, 'invalid');
    },
  );
});
