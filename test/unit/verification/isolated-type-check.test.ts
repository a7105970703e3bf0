import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyChangedFiles } from '../../../functions/engines/verification/check-files';

/**
 * A changed file is type-checked alone: its imports are not resolved. What TypeScript then says
 * only because it cannot see the imported types must not be reported; everything else must.
 * The project is strict, as most are.
 */

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'isolated-check-'));
  await writeFile(
    join(root, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "noImplicitOverride": true, "noUncheckedIndexedAccess": true } }',
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let count = 0;
const problemsIn = async (lines: string[], extension = '.ts'): Promise<Array<[number | null, string]>> => {
  const path = `file-${++count}${extension}`;
  await writeFile(join(root, path), lines.join('\n'));
  const report = await verifyChangedFiles(root, [path]);
  return report.problems.map((p) => [p.line, p.message.slice(0, p.message.indexOf(':'))]);
};

describe('what only unresolved imports explain is not reported', () => {
  it.each([
    [
      'a class extending an imported class: inherited members and overrides',
      [
        "import { Component } from 'react';",
        'export class View extends Component<{ name: string }> {',
        '  override render() { return this.props.name; }',
        '}',
        'export class Page extends View { override render() { return this.state; } }',
        'export const shown = new Page().context;',
      ],
    ],
    [
      'an interface extending an imported one, given in an object literal',
      [
        "import type { TokenUsage } from './usage';",
        'interface Usage extends TokenUsage { total: number }',
        'export const usage: Usage = { input_tokens: 1, total: 1 };',
      ],
    ],
    [
      'callbacks passed to imported functions, their parameters and `this`',
      [
        "import express from 'express';",
        "import { runStage } from './stages';",
        "express().get('/', (req, res) => res.send(req.query));",
        "export const stage = runStage('x', async ({ workflow, log }) => log(workflow));",
        '[1].forEach(function () { return this; });',
      ],
    ],
    [
      'a caught error narrowed by an imported class',
      [
        "import { ApiError } from './errors';",
        'export const codeOf = (error: unknown): string => (error instanceof ApiError ? error.code : String(error));',
        'try { codeOf(1); } catch (error) { console.log(error.message); }',
      ],
    ],
    [
      'values inferred from imported ones',
      [
        "import { template } from './template';",
        "export const descriptions = Object.values(template.findResources('Fn')).map((fn) => fn.Properties.Description);",
        'const requests: Parameters<typeof template.send>[0][] = [];',
        'export const headers = requests[0]?.headers;',
      ],
    ],
    [
      'functions ending with a call of an imported function, or a switch over an imported union',
      [
        "import type { Task } from './tasks';",
        "import { assertNever } from './assert';",
        'export const fail = (message: string): never => { console.error(message); process.exit(2); };',
        "export const kindOf = (task: Task): string => { switch (task.kind) { case 'a': return 'A'; } };",
        "export const other = (task: Task): string => { if (task.kind === 'a') return 'A'; assertNever(task); };",
      ],
    ],
    [
      'a variable assigned an imported value',
      [
        "import { mkdtemp } from 'node:fs/promises';",
        'let dir: string | undefined;',
        "export const setUp = async (): Promise<string> => { dir = await mkdtemp('x'); const known: string = dir; return dir + known; };",
      ],
    ],
    [
      'a type guard on an imported type, narrowing to never where it fails',
      [
        "import type { Stream } from './stream';",
        'const isStream = (value: unknown): value is Stream => value !== null;',
        'export const count = (value: unknown): number => {',
        '  if (isStream(value)) return 1;',
        '  if (Array.isArray(value)) return value.length;',
        '  return 0;',
        '};',
      ],
    ],
    [
      'a variable set from an imported value with ??=, or from an overload chosen by an imported argument',
      [
        "import { open, defaults } from './io';",
        'function pick(fallback: number): number;',
        'function pick(fallback: null): number | null;',
        'function pick(fallback: number | null): number | null { return fallback; }',
        'export const run = (handle?: { close(): void }): number => {',
        '  handle ??= open();',
        '  handle.close();',
        '  const chosen = pick(defaults.value);',
        '  return chosen + 1;',
        '};',
      ],
    ],
    [
      'members of an imported type, picked, or destructured from `this`',
      [
        "import type { Client } from './client';",
        "import { Base } from './base';",
        "export const urlOf = (client: Pick<Client, 'baseURL'>): string => client.apiVersion;",
        'export class Runner extends Base { run(): void { const { destination } = this; destination.next(); } }',
      ],
    ],
    [
      'keys of an imported type in a template, and an @ts-expect-error for an error the project has',
      [
        "import type { Stages } from './stages';",
        'export const label = (stage: keyof Stages): string => `stage ${stage}`;',
        '// @ts-expect-error the imported value is a number in the project',
        "export const wrong: string = 'fine here';",
      ],
    ],
    [
      'globals that come with @types packages, import.meta included',
      [
        'export const here = __dirname + __filename + import.meta.dirname;',
        "export const size = Buffer.byteLength('x') + Number(process.env.N) + require.length;",
        'export let timer: NodeJS.Timeout | undefined;',
        "describe('x', () => { beforeEach(() => undefined); it('y', () => { expect(jest).toBeDefined(); }); });",
      ],
    ],
  ])('%s', async (_, lines) => {
    expect(await problemsIn(lines)).toEqual([]);
  });

  it('augmentations of imported modules, and a declaration file of globals and ambient modules', async () => {
    const augmentation = [
      "import type { User } from './user';",
      "declare module 'express-serve-static-core' { interface Request { user?: User } }",
      'declare global { interface Array<T> { last(): T | undefined } }',
    ];
    const declarations = [
      'declare const APP_VERSION: string;',
      "declare module 'untyped-lib' { export function doIt(): number; }",
      'interface Window { appVersion: typeof APP_VERSION }',
    ];

    expect(await problemsIn(augmentation)).toEqual([]);
    expect(await problemsIn(declarations, '.d.ts')).toEqual([]);
  });
});

describe('errors of the file itself are reported', () => {
  it.each([
    ['a wrong literal type', ["export const a: number = 'x';"], [[1, 'TS2322']]],
    ['a misspelled property of a local object', ["const person = { name: 'x' };", 'export const n = person.nmae;'], [[2, 'TS2339']]],
    ['a property of an empty object literal', ['const o = {};', 'o.x = 1;'], [[2, 'TS2339']]],
    [
      'a wrong number of arguments to a local function',
      ['const twice = (v: number) => v * 2;', 'export const t = twice(1, 2);'],
      [[2, 'TS2554']],
    ],
    ['a name declared nowhere', ['export const u = notDeclared();'], [[1, 'TS2304']]],
    ['a possibly undefined value, in a strict project', ['export const len = (s?: string) => s.length;'], [[1, 'TS18048']]],
    [
      'a missing return in a switch over a local union',
      ["type Kind = 'a' | 'b';", "export const f = (k: Kind): number => { switch (k) { case 'a': return 1; } };"],
      [[2, 'TS2366']],
    ],
    [
      'a missing member of a class whose base is local',
      ['class Shape { area() { return 0; } }', 'export class Square extends Shape { override size() { return this.side; } }'],
      [
        [2, 'TS4113'],
        [2, 'TS2339'],
      ],
    ],
    [
      'a possibly undefined variable where no imported value was assigned to it before',
      [
        "import { mkdtemp } from 'node:fs/promises';",
        'let dir: string | undefined;',
        "export const setUp = async (): Promise<void> => { dir = await mkdtemp('x'); };",
        'export const use = (): number => { const known: string = dir; return known.length + dir.length; };',
      ],
      [
        [4, 'TS2322'],
        [4, 'TS18048'],
      ],
    ],
    [
      'an unknown value the file declares, used as a number next to imports',
      ["import { x } from './x';", 'export const y = (x as number) + 1;', "export const z: number = 'no';"],
      [[3, 'TS2322']],
    ],
  ])('%s', async (_, lines, expected) => {
    expect(await problemsIn(lines)).toEqual(expected);
  });

  it('in a declaration file too', async () => {
    expect(await problemsIn(["export declare const x: number = 'a';", 'export interface I { a: Strng }'], '.d.ts')).toEqual([
      [1, 'TS2322'],
      [1, 'TS1039'],
      [2, 'TS2552'],
    ]);
  });
});
