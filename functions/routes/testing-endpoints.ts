/**
 * Method and path of each testing operation, apart from the routes' schemas: `testing/get` answers
 * 405 with `Allow` for the literal paths under `/v1/tests/` (`/v1/tests/run`) from these alone.
 * The routes in `testing.ts` take their method and path from here, so the two cannot drift.
 */
export const testingEndpoints = {
  generate: { method: 'POST', path: '/v1/tests/generate' },
  run: { method: 'POST', path: '/v1/tests/run' },
  list: { method: 'GET', path: '/v1/tests' },
  get: { method: 'GET', path: '/v1/tests/{id}' },
  results: { method: 'GET', path: '/v1/tests/{id}/results' },
} as const;
