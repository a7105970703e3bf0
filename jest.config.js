/**
 * Four tiers, kept apart: unit (use cases with in-memory fakes), infra (CDK Template
 * assertions), contract (each repository port's fake and DynamoDB adapter held to the same
 * suite on DynamoDB Local) and integration (real HTTP against the local runtime on DynamoDB Local).
 * Runs as native ESM (`--experimental-vm-modules`), since middy 7 is ESM-only.
 */
const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true }],
};
const common = {
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
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
