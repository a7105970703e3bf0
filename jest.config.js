/**
 * Four tiers, kept apart: unit (use cases with in-memory fakes), infra (CDK Template
 * assertions), contract (each repository port's fake and DynamoDB adapter held to the same
 * suite on DynamoDB Local) and integration (real HTTP against the local runtime on DynamoDB Local).
 * Runs as native ESM (`--experimental-vm-modules`), since middy 7 is ESM-only.
 */
const transform = {
  '^.+\\.tsx?$': ['ts-jest', { useESM: true }],
  // Stylesheets are imported as text, as esbuild's `text` loader bundles them for Lambda.
  '^.+\\.css$': '<rootDir>/test/support/text-transform.cjs',
  '^.+\\.client\\.js$': '<rootDir>/test/support/text-transform.cjs',
};
const common = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform,
  testEnvironment: 'node',
  // The SDK workspace is imported from its TypeScript source (its `source` export condition), whose
  // relative imports name the `.js` files tsc emits.
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json', 'css'],
  // The network fence in every test file: nothing leaves loopback, and a file whose code tried fails.
  setupFilesAfterEnv: ['<rootDir>/test/support/network-fence-jest.ts'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
      // One synthesis per context for the whole run, shared by the files (test/infra/synthesized.ts).
      globalSetup: '<rootDir>/test/infra/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/infra/setup/global-teardown.ts',
    },
    { ...common, displayName: 'sdk', testMatch: ['<rootDir>/clients/typescript/test/**/*.test.ts'] },
    {
      // Every repository port's contract, run against its in-memory fake and its DynamoDB adapter.
      ...common,
      displayName: 'contract',
      testMatch: ['<rootDir>/test/contract/**/*.test.ts'],
      // One DynamoDB Local for the tier; each test makes its own table in it.
      globalSetup: '<rootDir>/test/contract/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/contract/support/global-teardown.ts',
    },
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
