import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { appendFileSync } from 'node:fs';
import type { ApiAnswer } from './http';

type Json = Record<string, any>;

interface Served {
  document: Json;
  ajv: InstanceType<typeof Ajv2020>;
  /** The document's path templates, most literal first, each with the pattern a concrete path matches. */
  templates: { template: string; pattern: RegExp }[];
}

let compiled: Promise<Served> | undefined;

/** The shared runtime's API root (not through runtime.ts, whose hooks must not load inside a test or the global set-up). */
const apiUrl = (): string => {
  const url = process.env.IT_API_URL;
  if (!url) throw new Error('the integration global set-up did not run');
  return url;
};

const literalSegments = (template: string) => template.split('/').filter((s) => s && !s.startsWith('{')).length;

/** The document the running service serves, loaded and compiled once per test file's process. */
const served = () =>
  (compiled ??= fetch(`${apiUrl()}/openapi.json`)
    .then((response) => response.json() as Promise<Json>)
    .then((document) => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(document, 'openapi');
      const templates = Object.keys(document.paths ?? {})
        .sort((a, b) => literalSegments(b) - literalSegments(a))
        .map((template) => ({
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
        }));
      return { document, ajv, templates };
    }));

const pointer = (...segments: string[]): string => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * The path template of the document that serves `method path` (a concrete path such as
 * `/v1/tests/tst_…?x=1`): the most literal template declaring the method, else the most literal
 * template the path matches at all (its undeclared method is then the 405 to check), else none.
 */
export const templateOf = async (method: string, path: string): Promise<string | undefined> => {
  const { document, templates } = await served();
  const bare = path.split('?')[0] ?? path;
  const matching = templates.filter(({ pattern }) => pattern.test(bare));
  const withMethod = matching.find(({ template }) => document.paths[template][method.toLowerCase()]);
  return (withMethod ?? matching[0])?.template;
};

/**
 * What is wrong with `answer` as an answer of `method path` (the path template, e.g.
 * `/v1/tests/{id}`) by the served OpenAPI document: its status undeclared, or its body not valid
 * against the declared schema. Empty when the answer is what the document says.
 */
export const contractProblems = async (method: string, path: string, answer: ApiAnswer): Promise<string[]> => {
  const { document, ajv } = await served();
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) {
    // A method the path does not have: the server must say so with a 405 in the envelope.
    if (document.paths?.[path] && answer.status === 405) {
      return [...envelopeProblems(method, path, answer), ...(answer.headers.has('allow') ? [] : [`${method} ${path} 405 lacks Allow`])];
    }
    return [`${method} ${path} is not in the document`];
  }
  const declared = operation.responses?.[String(answer.status)];
  if (!declared) return [`${method} ${path} answered ${answer.status}, which the document does not declare`];
  const headers = headerProblems(document, `${method} ${path} ${answer.status}`, declared.headers ?? {}, answer);
  if (headers.length > 0) return headers;
  if (!declared.content) return answer.text === '' ? [] : [`${method} ${path} ${answer.status} declares no body but sent one`];
  // A representation that is not JSON (a diff): the declared media type, a text body.
  const [mediaType] = Object.keys(declared.content);
  if (mediaType && mediaType !== 'application/json') {
    const sent = answer.headers.get('content-type')?.split(';')[0]?.trim();
    return sent === mediaType ? [] : [`${method} ${path} ${answer.status} declares ${mediaType} but sent ${sent}`];
  }
  const ref = `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(answer.status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref);
  if (!validate) return [`no schema at ${ref}`];
  const problems = validate(answer.body)
    ? []
    : (validate.errors ?? []).map(
        (e) => `${method} ${path} ${answer.status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
      );
  return answer.status >= 400 ? [...problems, ...envelopeProblems(method, path, answer)] : problems;
};

/**
 * Headers every answer carries that are no part of an operation's contract: the representation's
 * framing, caching and CORS (the document's description states the CORS settings).
 */
const undocumentedHeaders = new Set([
  'content-type',
  'content-length',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * Every other header sent is one the response declares (`RateLimit`, `Retry-After`,
 * `Idempotent-Replayed`…), and every header it declares `required` was sent.
 */
const headerProblems = (document: Json, where: string, declared: Record<string, Json>, answer: ApiAnswer): string[] => {
  const names = new Map(Object.keys(declared).map((name) => [name.toLowerCase(), name]));
  const problems: string[] = [];
  answer.headers.forEach((_value, name) => {
    if (!undocumentedHeaders.has(name) && !names.has(name)) problems.push(`${where} sent ${name}, which the document does not declare`);
  });
  for (const [name, header] of Object.entries(declared)) {
    const ref = typeof header.$ref === 'string' ? header.$ref.replace('#/components/headers/', '') : undefined;
    const required = (ref === undefined ? header : document.components?.headers?.[ref])?.required === true;
    if (required && !answer.headers.has(name)) problems.push(`${where} lacks ${name}, which the document declares required`);
  }
  return problems;
};

/** An error answer is `{error: {code, message, request_id}}` with the same id in `X-Request-Id`. */
const envelopeProblems = (method: string, path: string, answer: ApiAnswer): string[] => {
  const id = answer.headers.get('x-request-id');
  const error = (answer.body as Json | undefined)?.error;
  if (!id) return [`${method} ${path} ${answer.status} has no X-Request-Id`];
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string')
    return [`${method} ${path} ${answer.status} is not an error envelope: ${answer.text.slice(0, 200)}`];
  // A replay repeats the first answer as it was, request_id included; X-Request-Id is this request's.
  if (answer.headers.get('idempotent-replayed') === 'true') return typeof error.request_id === 'string' ? [] : ['no error.request_id'];
  return error.request_id === id
    ? []
    : [`${method} ${path} ${answer.status}: error.request_id ${error.request_id} is not X-Request-Id ${id}`];
};

/** Asserts that `answer` is what the served document declares for `method path`. */
export const expectDeclared = async (method: string, path: string, answer: ApiAnswer): Promise<void> => {
  expect(await contractProblems(method, path, answer)).toEqual([]);
};

/**
 * The check every answer of the integration tier's `call` goes through: an answer from a `/v1`
 * path of the document must be what the document declares. A path the document lacks (an unknown
 * route) must still be a 404 or 405 in the envelope. Problems fail the calling test, or, with
 * IT_CONTRACT_LOG set to a file, are appended to it (to survey a whole run at once).
 */
export const checkAnswer = async (method: string, path: string, answer: ApiAnswer): Promise<void> => {
  const fullPath = `/v1${path.split('?')[0]}`;
  // CORS preflights are answered by API Gateway in AWS, and are no operation of the document.
  if (path === '/openapi.json' || method.toUpperCase() === 'OPTIONS') return;
  const template = await templateOf(method, fullPath);
  const problems = template
    ? await contractProblems(method, template, answer)
    : [404, 405].includes(answer.status)
      ? envelopeProblems(method, fullPath, answer)
      : [`${method} ${fullPath} (no such path in the document) answered ${answer.status}`];
  if (problems.length === 0) return;
  const log = process.env.IT_CONTRACT_LOG;
  if (log) {
    appendFileSync(log, `${expect.getState().testPath}\t${expect.getState().currentTestName}\n  ${problems.join('\n  ')}\n`);
    return;
  }
  throw new Error(`The answer does not match the served OpenAPI document:\n  ${problems.join('\n  ')}`);
};

/**
 * `fetch` whose `/v1` answers go through `checkAnswer`: for clients other than `call` (the SDK,
 * the session client of the pages, the client of a second runtime). Pages and `/oauth` are not in
 * the document and pass unchecked.
 */
export const checkedFetch =
  (inner: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch =>
  async (input, init) => {
    const response = await inner(input, init);
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input));
    if (!url.pathname.startsWith('/v1/')) return response;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    await checkAnswer(method, `${url.pathname.slice('/v1'.length)}${url.search}`, {
      status: response.status,
      headers: response.headers,
      body,
      text,
    });
    return response;
  };
