import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as v from 'valibot';
import { buildOpenApiDocument } from '../../functions/openapi/build-document';
import { routes } from '../../functions/routes';
import { closed } from '../support/closed-schema';

type Json = Record<string, any>;

const document = buildOpenApiDocument(routes) as Json;

/** Answers against the closed schemas; request bodies against the document as it is (a body's schema says itself which objects are open). */
const compiled = (schemaDocument: unknown) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schemaDocument as Json, 'openapi');
  return ajv;
};
const answerAjv = compiled(closed(document));
const requestAjv = compiled(document);

const pointer = (...segments: string[]): string => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Example {
  name: string;
  operationId: string;
  example: unknown;
  schemaRef: string;
}

const operations = Object.entries(document.paths as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })),
);

const responseExamples: Example[] = [];
const requestExamples: Example[] = [];
const withoutExample: string[] = [];
for (const { path, method, operation } of operations) {
  const name = `${method.toUpperCase()} ${path}`;
  for (const [status, response] of Object.entries(operation.responses as Json)) {
    if (!status.startsWith('2') || !response.content) continue;
    for (const [mediaType, media] of Object.entries(response.content as Json)) {
      if (media.example === undefined) withoutExample.push(`${name} ${status}`);
      else
        responseExamples.push({
          name: `${name} ${status}`,
          operationId: operation.operationId,
          example: media.example,
          schemaRef: `openapi#${pointer('', 'paths', path, method, 'responses', status, 'content', mediaType, 'schema')}`,
        });
    }
  }
  const body = operation.requestBody?.content?.['application/json'];
  if (body) {
    if (body.example === undefined) withoutExample.push(`${name} request body`);
    else
      requestExamples.push({
        name,
        operationId: operation.operationId,
        example: body.example,
        schemaRef: `openapi#${pointer('', 'paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}`,
      });
  }
}

const problemsOf = ({ example, schemaRef }: Example, ajv = answerAjv): string[] => {
  const validate = ajv.getSchema(schemaRef);
  if (!validate) return [`no schema at ${schemaRef}`];
  return validate(example) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
};

describe('the OpenAPI document’s examples', () => {
  it('give every success answer with a body, and every request body, an example', () => {
    expect(withoutExample).toEqual([]);
    expect(responseExamples.length).toBeGreaterThanOrEqual(40);
    expect(requestExamples.length).toBeGreaterThanOrEqual(13);
  });

  it.each(responseExamples.map((example) => [example.name, example]))(
    'answer of %s: valid against its schema, no field the service never sends',
    (_, example) => {
      expect(problemsOf(example)).toEqual([]);
    },
  );

  it.each(requestExamples.map((example) => [example.name, example]))(
    'request body of %s: valid against its schema, and one the operation’s own check accepts',
    (_, example) => {
      expect(problemsOf(example, requestAjv)).toEqual([]);
      const route = routes.find(({ operationId }) => operationId === example.operationId);
      if (!route?.body) throw new Error(`${example.name} has no body schema`);
      const parsed = v.safeParse(route.body, example.example);
      expect(parsed.issues?.map((issue) => issue.message) ?? []).toEqual([]);
    },
  );

  it('are refused when they drift: a field the schema does not have, or a required one missing', () => {
    const project = responseExamples.find(({ name }) => name === 'GET /v1/projects/{id} 200');
    if (!project) throw new Error('no example of GET /v1/projects/{id}');
    const data = (project.example as Json).data as Json;
    expect(problemsOf({ ...project, example: { data: { ...data, repo_url: data.repository } } })).not.toEqual([]);
    const { name: _name, ...withoutName } = data;
    expect(problemsOf({ ...project, example: { data: withoutName } })).not.toEqual([]);
  });

  it('show nothing of a local run: no loopback address, local path or local provider', () => {
    const text = JSON.stringify([...responseExamples, ...requestExamples].map(({ example }) => example));
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|\/tmp\/|file:\/\/|"local"|local-deterministic/);
  });
});
