import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { verifyChangedFiles } from '../../../functions/engines/verification/check-files';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'check-files-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = async (files: Record<string, string>): Promise<string[]> => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return Object.keys(files);
};

const verify = async (files: Record<string, string>) => verifyChangedFiles(root, await write(files));

describe('verifyChangedFiles: TypeScript and JavaScript', () => {
  it('passes valid files, checking the syntax of each and the types of TypeScript files', async () => {
    const report = await verify({
      'src/service.ts': [
        "import { readFile } from 'node:fs/promises';",
        "import type { Config } from './config';",
        'export const load = async (config: Config): Promise<string> => {',
        "  console.log('loading', process.env.STAGE, __dirname);",
        "  return readFile(config.path, 'utf8');",
        '};',
        'const timer: ReturnType<typeof setTimeout> = setTimeout(() => undefined, 10);',
        'clearTimeout(timer);',
      ].join('\n'),
      'src/view.tsx':
        'import { useState } from \'react\';\nexport const Counter = () => { const [n] = useState(0); return <button className="c">{n}</button>; };\n',
      'src/legacy.js': "const path = require('node:path');\nmodule.exports = () => <div>{path.sep}</div>;\n",
      'src/module.mjs': 'export const answer = await Promise.resolve(42);\n',
      'test/service.test.ts': "describe('load', () => { it('loads', () => { expect(1).toBe(1); }); });\n",
    });

    expect(report).toEqual({
      passed: true,
      checks: [
        { name: 'syntax', path: 'src/legacy.js', status: 'passed' },
        { name: 'syntax', path: 'src/module.mjs', status: 'passed' },
        { name: 'syntax', path: 'src/service.ts', status: 'passed' },
        { name: 'types', path: 'src/service.ts', status: 'passed' },
        { name: 'syntax', path: 'src/view.tsx', status: 'passed' },
        { name: 'types', path: 'src/view.tsx', status: 'passed' },
        { name: 'syntax', path: 'test/service.test.ts', status: 'passed' },
        { name: 'types', path: 'test/service.test.ts', status: 'passed' },
      ],
      problems: [],
    });
  });

  it('reports a syntax error at its line and does not type-check the file', async () => {
    const report = await verify({ 'src/broken.ts': 'export const a = 1;\n\nexport const b = ;\n' });

    expect(report.passed).toBe(false);
    expect(report.checks).toEqual([
      { name: 'syntax', path: 'src/broken.ts', status: 'failed', message: '1 problem' },
      { name: 'types', path: 'src/broken.ts', status: 'skipped', message: 'not run: the file has syntax errors' },
    ]);
    expect(report.problems).toEqual([{ check: 'syntax', path: 'src/broken.ts', line: 3, message: 'TS1109: Expression expected.' }]);
  });

  it('reports syntax errors in JavaScript, TypeScript-only syntax included', async () => {
    const report = await verify({ 'a.js': 'function f() {\n  return 1 +;\n}\n', 'b.cjs': 'const n: number = 1;\n' });

    expect(report.problems.map(({ path, line }) => ({ path, line }))).toEqual([
      { path: 'a.js', line: 2 },
      { path: 'b.cjs', line: 1 },
    ]);
    expect(report.problems[1]?.message).toMatch(/^TS8010: Type annotations can only be used in TypeScript files/);
  });

  it('reports a type error at its line', async () => {
    const report = await verify({ 'src/a.ts': "export const ok: string = 'x';\nexport const a: number = 'x';\n" });

    expect(report.passed).toBe(false);
    expect(report.checks).toContainEqual({ name: 'types', path: 'src/a.ts', status: 'failed', message: '1 problem' });
    expect(report.problems).toEqual([
      { check: 'types', path: 'src/a.ts', line: 2, message: "TS2322: Type 'string' is not assignable to type 'number'." },
    ]);
  });

  it('does not report imports that cannot be resolved, nor what is imported through them', async () => {
    const report = await verify({
      'src/uses-imports.ts': [
        "import leftPad from 'left-pad';",
        "import * as helpers from '../lib/helpers';",
        "import { thing, type Shape } from './missing.js';",
        "import fs = require('fs');",
        'const shape: Shape = helpers.make(thing);',
        'export const padded: helpers.Padded = leftPad(shape, fs.constants.F_OK);',
      ].join('\n'),
    });

    expect(report).toEqual({
      passed: true,
      checks: [
        { name: 'syntax', path: 'src/uses-imports.ts', status: 'passed' },
        { name: 'types', path: 'src/uses-imports.ts', status: 'passed' },
      ],
      problems: [],
    });
  });

  it('still reports type errors that involve known types next to unresolved imports', async () => {
    const report = await verify({ 'src/b.ts': "import { x } from './x';\nconst n: number = x;\nexport const s: string = n;\n" });

    expect(report.problems).toEqual([
      { check: 'types', path: 'src/b.ts', line: 3, message: "TS2322: Type 'number' is not assignable to type 'string'." },
    ]);
  });

  it('holds a file to the strictness of the nearest tsconfig.json, and is lax without one', async () => {
    const source = 'export const length = (text: string | undefined): number => text.length;\n';
    const lax = await verify({ 'lax/a.ts': source });
    const strict = await verify({
      'app/tsconfig.json': '{\n  // comments are allowed here\n  "compilerOptions": { "strict": true, },\n}\n',
      'app/src/a.ts': source,
    });

    expect(lax.passed).toBe(true);
    expect(strict.problems).toEqual([
      { check: 'types', path: 'app/src/a.ts', line: 1, message: "TS18048: 'text' is possibly 'undefined'." },
    ]);
  });

  it('follows `extends` to a base in the repository, and takes @tsconfig/* bases as strict', async () => {
    const source = 'export const length = (text: string | undefined): number => text.length;\n';
    const report = await verify({
      'tsconfig.base.json': '{ "compilerOptions": { "strict": true } }',
      'packages/a/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }',
      'packages/a/index.ts': source,
      'packages/b/tsconfig.json': '{ "extends": ["@tsconfig/node22/tsconfig.json"], "compilerOptions": { "outDir": "dist" } }',
      'packages/b/index.ts': source,
      'packages/c/tsconfig.json': '{ "extends": "some-company-config", "compilerOptions": { "outDir": "dist" } }',
      'packages/c/index.ts': source,
    });

    expect(report.problems.map((p) => p.path)).toEqual(['packages/a/index.ts', 'packages/b/index.ts']);
  });

  it('takes a tsconfig.json, or a base it extends, that is a folder as no configuration, never a failure', async () => {
    const source = 'export const length = (text: string | undefined): number => text.length;\n';
    await mkdir(join(root, 'folder/tsconfig.json'), { recursive: true });
    await mkdir(join(root, 'based/base.json'), { recursive: true });
    const report = await verify({
      'folder/a.ts': source,
      'based/tsconfig.json': '{ "extends": "./base.json", "compilerOptions": { "strict": true } }',
      'based/a.ts': source,
    });
    expect(report.checks.filter((check) => check.status !== 'passed' && check.status !== 'failed')).toEqual([]);
    // The folder is skipped (lax: no problem); the readable tsconfig.json still holds its own options.
    expect(report.problems.map((p) => p.path)).toEqual(['based/a.ts']);
  });

  it('skips type checks, with the reason, when TypeScript lib files are not available', async () => {
    const emptyLibDir = await mkdtemp(join(tmpdir(), 'no-ts-libs-'));
    try {
      const paths = await write({ 'src/a.ts': "export const a: number = 'x';\n" });
      const report = await verifyChangedFiles(root, paths, { typeScriptLibDir: emptyLibDir });

      expect(report.passed).toBe(true);
      expect(report.checks[0]).toEqual({ name: 'syntax', path: 'src/a.ts', status: 'passed' });
      expect(report.checks[1]).toMatchObject({
        name: 'types',
        status: 'skipped',
        message: expect.stringContaining(`TypeScript lib files missing from ${emptyLibDir}: lib.esnext.full.d.ts`),
      });
    } finally {
      await rm(emptyLibDir, { recursive: true, force: true });
    }
  });
});

describe('verifyChangedFiles: data files', () => {
  it('reports invalid JSON with its line', async () => {
    const report = await verify({ 'config/ok.json': '{"a": [1, 2]}\n', 'config/bad.json': '{\n  "a": 1,\n  "b": \n}\n' });

    expect(report.checks).toEqual([
      { name: 'json', path: 'config/bad.json', status: 'failed', message: '1 problem' },
      { name: 'json', path: 'config/ok.json', status: 'passed' },
    ]);
    expect(report.problems).toEqual([{ check: 'json', path: 'config/bad.json', line: 4, message: expect.any(String) }]);
  });

  it('reports JSON cut short, and a line for an error V8 gives no position for', async () => {
    const report = await verify({ 'short.json': '{\n  "a": [1,\n', 'token.json': '{\n"a": }' });

    expect(report.problems).toEqual([
      { check: 'json', path: 'short.json', line: expect.any(Number), message: expect.any(String) },
      { check: 'json', path: 'token.json', line: 2, message: expect.any(String) },
    ]);
  });

  it('allows comments and trailing commas in tsconfig.json and friends, not in other JSON', async () => {
    const jsonc = '{\n  // why\n  "a": 1,\n}\n';
    const report = await verify({ 'tsconfig.json': jsonc, '.vscode/settings.json': jsonc, 'package.json': jsonc });

    expect(report.checks.map((c) => [c.path, c.status])).toEqual([
      ['.vscode/settings.json', 'passed'],
      ['package.json', 'failed'],
      ['tsconfig.json', 'passed'],
    ]);
  });

  it('checks YAML when a YAML parser is installed, CloudFormation tags included', async () => {
    const report = await verify({
      'template.yaml':
        'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub "${AWS::StackName}-data"\n---\nsecond: doc\n',
      'broken.yml': 'jobs:\n  build:\n    steps: [a, b\n  test: 1\n',
    });

    expect(report.checks).toEqual([
      { name: 'yaml', path: 'broken.yml', status: 'failed', message: expect.any(String) },
      { name: 'yaml', path: 'template.yaml', status: 'passed' },
    ]);
    expect(report.problems[0]).toMatchObject({ check: 'yaml', path: 'broken.yml', line: 4 });
  });

  it('skips Python and unknown file types, saying why', async () => {
    const report = await verify({ 'app/main.py': 'def f(:\n', 'README.md': '# Title\n' });

    expect(report).toEqual({
      passed: true,
      checks: [
        { name: 'syntax', path: 'README.md', status: 'skipped', message: 'no checker for this file type' },
        { name: 'syntax', path: 'app/main.py', status: 'skipped', message: 'no Python checker in this runtime' },
      ],
      problems: [],
    });
  });
});

describe('verifyChangedFiles: paths', () => {
  it('orders by path then check, whatever the order given, and leaves out deleted files', async () => {
    await write({ 'b.ts': 'export const b = 1;\n', 'a.json': '{}' });

    const report = await verifyChangedFiles(root, ['b.ts', 'deleted.ts', 'a.json', 'b.ts']);

    expect(report.checks).toEqual([
      { name: 'json', path: 'a.json', status: 'passed' },
      { name: 'syntax', path: 'b.ts', status: 'passed' },
      { name: 'types', path: 'b.ts', status: 'passed' },
    ]);
  });

  it('fails a path that leads outside the repository, without reading it', async () => {
    const report = await verifyChangedFiles(root, ['../outside.ts']);

    expect(report).toEqual({
      passed: false,
      checks: [{ name: 'path', path: '../outside.ts', status: 'failed', message: 'outside the repository' }],
      problems: [{ check: 'path', path: '../outside.ts', line: null, message: 'the path leads outside the repository' }],
    });
  });

  it('gives the same report for the same tree', async () => {
    const files = { 'z.ts': "export const z: number = '1';\n", 'a.json': '{', 'm.js': 'let = 1;' };
    const first = await verify(files);
    const second = await verifyChangedFiles(root, Object.keys(files).reverse());

    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});
