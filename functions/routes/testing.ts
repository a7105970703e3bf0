import { idParams } from './schemas/common';
import { generateTestsBody, runTestsBody } from './schemas/testing-bodies';
import { listTestsQuery } from './schemas/testing-queries';
import { testObjectSchema, testRunSchema, testSuiteSchema } from './schemas/testing';
import { defineRoute, type ResponseSchemas } from './route';
import { generateTestsPath, getTestPath, getTestResultsPath, listTestsPath, runTestsPath } from './testing-endpoints';

const tag = 'Tests';

export const generateTestsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'generateTests',
  summary: 'Generate tests with AI',
  description:
    'Queues a test suite (`test_…`); when done it holds the generated files, each with the cases it declares. The framework is detected when not given.',
  tag,
  method: 'POST',
  path: generateTestsPath,
  handler: 'testing/generate',
  scope: 'write:tests',
  tableAccess: 'write',
  startsTestJobs: true,
  body: generateTestsBody,
  success: { status: 201, description: 'The new suite, `queued`.' },
});

export const runTestsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'runTests',
  summary: 'Run tests in isolation',
  description:
    "Runs a generated suite (`test_id`) or the repository's own tests (`project_id`, `branch`) in isolation: a CodeBuild project with no access to the service in AWS, a sandboxed child process locally.",
  tag,
  method: 'POST',
  path: runTestsPath,
  handler: 'testing/run',
  scope: 'write:tests',
  tableAccess: 'write',
  startsTestJobs: true,
  body: runTestsBody,
  success: { status: 201, description: 'The new run (`run_…`), `queued`.' },
  errors: [409],
});

export const listTestsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'listTests',
  summary: 'List test suites and runs',
  description: 'Suites and runs together in creation order, each as `GET /v1/tests/{id}` answers it (`object` tells which).',
  tag,
  method: 'GET',
  path: listTestsPath,
  handler: 'testing/list',
  scope: 'read:tests',
  tableAccess: 'read',
  query: listTestsQuery,
  success: { status: 200, description: 'A page of suites and runs.', list: true },
});

export const getTestRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getTest',
  summary: 'Get a test suite or run',
  tag,
  method: 'GET',
  path: getTestPath,
  handler: 'testing/get',
  scope: 'read:tests',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The suite (`object: test_suite`) or the run (`object: test_run`).' },
  errors: [404, 405],
});

export const getTestResultsRoute = /* @__PURE__ */ defineRoute({
  operationId: 'getTestResults',
  summary: 'Get test results',
  description: "A run's results; for a suite, its latest run's (404 until it has one).",
  tag,
  method: 'GET',
  path: getTestResultsPath,
  handler: 'testing/results',
  scope: 'read:tests',
  tableAccess: 'read',
  params: idParams,
  success: { status: 200, description: 'The run with its results.' },
  errors: [404],
});

export const testingRoutes = [generateTestsRoute, runTestsRoute, listTestsRoute, getTestRoute, getTestResultsRoute];

/** The `data` of each operation's success response, for the OpenAPI document (`ResponseSchemas`). */
export const testingResponses = {
  generateTests: testSuiteSchema,
  runTests: testRunSchema,
  listTests: testObjectSchema,
  getTest: testObjectSchema,
  getTestResults: testRunSchema,
} satisfies ResponseSchemas;
