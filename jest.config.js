/**
 * Three tiers, kept apart: unit (use cases with in-memory fakes), infra (CDK Template
 * assertions) and integration (real HTTP against the local runtime on DynamoDB Local).
 * Runs as native ESM (`--experimental-vm-modules`), since middy 7 is ESM-only.
 */
const transform = {
  '^.+\\.tsx?$': ['ts-jest', { useESM: true }],
  // Stylesheets are imported as text, as esbuild's `text` loader bundles them for Lambda.
  '^.+\\.css$': '<rootDir>/test/support/text-transform.cjs',
};
const common = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json', 'css'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/setup/global-teardown.ts',
    },
  ],
  testTimeout: 60_000,
};
