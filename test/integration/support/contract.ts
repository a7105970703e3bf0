import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiAnswer } from './http';
import { call } from './http';

type Json = Record<string, any>;

let compiled: Promise<{ document: Json; ajv: InstanceType<typeof Ajv2020> }> | undefined;

/** The document the running service serves, loaded once, as the schemas to check answers with. */
const served = () =>
  (compiled ??= call<Json>('GET', '/openapi.json').then(({ body: document }) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    return { document, ajv };
  }));

const pointer = (...segments: string[]): string => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * What is wrong with `answer` as an answer of `method path` (the path template, e.g.
 * `/v1/tests/{id}`) by the served OpenAPI document: its status undeclared, or its body not valid
 * against the declared schema. Empty when the answer is what the document says.
 */
export const contractProblems = async (method: string, path: string, answer: ApiAnswer): Promise<string[]> => {
  const { document, ajv } = await served();
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${path} is not in the document`];
  const declared = operation.responses?.[String(answer.status)];
  if (!declared) return [`${method} ${path} answered ${answer.status}, which the document does not declare`];
  if (!declared.content) return answer.text === '' ? [] : [`${method} ${path} ${answer.status} declares no body but sent one`];
  const ref = `openapi#/${pointer('paths', path, method.toLowerCase(), 'responses', String(answer.status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref);
  if (!validate) return [`no schema at ${ref}`];
  return validate(answer.body)
    ? []
    : (validate.errors ?? []).map(
        (e) => `${method} ${path} ${answer.status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
      );
};

/** Asserts that `answer` is what the served document declares for `method path`. */
export const expectDeclared = async (method: string, path: string, answer: ApiAnswer): Promise<void> => {
  expect(await contractProblems(method, path, answer)).toEqual([]);
};
