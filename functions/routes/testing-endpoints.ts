/**
 * Method and path of each testing operation, apart from the routes' schemas: `testing/get` answers
 * 405 with `Allow` for the literal paths under `/v1/tests/` (`/v1/tests/run`) from these alone.
 * The routes in `testing.ts` take their paths from here (plain constants, so a bundle that keeps
 * one route does not keep the others); a unit test holds the list equal to the routes.
 */
export const generateTestsPath = '/v1/tests/generate';
export const runTestsPath = '/v1/tests/run';
export const listTestsPath = '/v1/tests';
export const getTestPath = '/v1/tests/{id}';
export const getTestResultsPath = '/v1/tests/{id}/results';

export const testingEndpoints: readonly { method: string; path: string }[] = [
  { method: 'POST', path: generateTestsPath },
  { method: 'POST', path: runTestsPath },
  { method: 'GET', path: listTestsPath },
  { method: 'GET', path: getTestPath },
  { method: 'GET', path: getTestResultsPath },
];
