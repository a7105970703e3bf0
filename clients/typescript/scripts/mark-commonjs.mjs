// dist/cjs holds the CommonJS build inside a "type": "module" package: its own package.json tells
// node and TypeScript that the .js and .d.ts files under it are CommonJS.
import { writeFileSync } from 'node:fs';

const folder = process.argv[2] ?? 'dist/cjs';
writeFileSync(`${folder}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
