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
    // Tests read JSON answers of any shape.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The core is rules only: no file system, network, processes or tool packages.
    files: ['functions/core/**/*.ts'],
    rules: {
      // A warning until every engine has left the core (issue 12); then an error.
      'no-restricted-imports': [
        'warn',
        {
          paths: [
            'node:fs',
            'node:fs/promises',
            'node:net',
            'node:child_process',
            'node:dns',
            'node:http',
            'node:https',
            'fs',
            'net',
            'child_process',
          ].map((name) => ({ name, message: 'I/O belongs in functions/adapters; the core takes a port.' })),
          patterns: [{ group: ['@aws-sdk/*', 'aws-lambda'], message: 'AWS belongs in functions/adapters.' }],
        },
      ],
    },
  },
  prettier,
);
