// The project's own lint rules (not the sast scanner's, which live in functions/ and never read this file).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', '.local-data/', 'clients/*/dist/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Validation and scanners match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // The dashboard's browser script: plain JavaScript served as text (functions/pages/assets).
    files: ['functions/pages/assets/*.client.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    // CommonJS files (jest transforms) load their modules with require.
    files: ['**/*.cjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read JSON answers of any shape.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The core is rules only: no file system, network, processes or tool packages.
    files: ['functions/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'fs',
            'fs/promises',
            'net',
            'tls',
            'dgram',
            'dns',
            'http',
            'https',
            'http2',
            'child_process',
            'worker_threads',
            'os',
            'module',
            'vm',
          ]
            .flatMap((name) => [name, `node:${name}`])
            .map((name) => ({ name, message: 'I/O belongs in functions/adapters (or functions/engines); the core takes a port.' })),
          patterns: [
            { group: ['@aws-sdk/*', 'aws-lambda', '@aws-lambda-powertools/*'], message: 'AWS belongs in functions/adapters.' },
            {
              group: [
                'typescript',
                'typescript-eslint',
                '@typescript-eslint/*',
                'eslint',
                'eslint-*',
                '@eslint/*',
                '@eslint-community/*',
                'secretlint',
                '@secretlint/*',
                'isomorphic-git',
                'fast-xml-parser',
                'aws-cdk-lib',
                'aws-cdk-lib/*',
                'constructs',
                '@middy/*',
              ],
              message: 'Tools and frameworks belong in functions/engines, functions/adapters or functions/http; the core takes a port.',
            },
            {
              group: ['**/adapters/**', '**/engines/**', '**/handlers/**', '**/http/**', '**/routes/**'],
              message: 'The core depends on nothing outside it: declare a port in the core and implement it outside.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
