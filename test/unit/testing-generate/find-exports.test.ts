import { findJsExports, findPythonDefinitions, hasEsmSyntax, maskJs } from '../../../functions/engines/testing/find-exports';

const names = (source: string): string[] => findJsExports(source).map((found) => `${found.name}:${found.kind}`);

describe('findJsExports', () => {
  it('reads ESM declarations, defaults, export lists and namespace re-exports', () => {
    const source = [
      'export function plain() {}',
      'export async function later() {}',
      'export function* numbers() {}',
      'export class Thing {}',
      'export const arrow = async (a, b) => a + b;',
      'export const single = x => x;',
      'export const expression = function () {};',
      'export const Klass = class {};',
      'export const value = compute(1);',
      'export const parenthesised = (1 + 2);',
      'export let counter = 0;',
      'const local = () => 1;',
      'class LocalClass {}',
      'export { local, LocalClass as Renamed, counter as default };',
      "export { fromElsewhere } from './elsewhere.js';",
      "export * as everything from './everything.js';",
      "export * from './all.js';",
    ].join('\n');
    expect(names(source)).toEqual([
      'Klass:class',
      'Renamed:class',
      'Thing:class',
      'arrow:function',
      'counter:value',
      'default:value',
      'everything:value',
      'expression:function',
      'fromElsewhere:value',
      'later:function',
      'local:function',
      'numbers:function',
      'parenthesised:value',
      'plain:function',
      'single:function',
      'value:value',
    ]);
  });

  it('classifies default exports', () => {
    expect(names('export default function () {}')).toEqual(['default:function']);
    expect(names('export default async function named() {}')).toEqual(['default:function']);
    expect(names('export default class {}')).toEqual(['default:class']);
    expect(names('export default (a) => a;')).toEqual(['default:function']);
    expect(names('export default { a: 1 };')).toEqual(['default:value']);
    expect(names('function run() {}\nexport default run;')).toEqual(['default:function']);
  });

  it('leaves out TypeScript type-only exports and ambient declarations', () => {
    const source = [
      'export interface A { a: number }',
      'export type B = string;',
      'export type { C } from "./c";',
      'export declare const d: number;',
      'export declare function e(): void;',
      'export const enum F { X }',
      'export namespace G { export const inner = 1; }',
      'interface H {}',
      'export { type I, H };',
      'export enum J { Y }',
      'export const typed: (a: number) => number = (a) => a * 2;',
      'export const generic = <T,>(x: T): T => x;',
      'export const withReturnType = (a: number): string => String(a);',
      'export const config: { retries: number } = { retries: 3 };',
      'export function overloaded(a: string): string;',
      'export function overloaded(a: unknown) { return String(a); }',
      'export abstract class Base {}',
    ].join('\n');
    expect(names(source)).toEqual([
      'Base:class',
      'J:value',
      'config:value',
      'generic:function',
      'overloaded:function',
      'typed:function',
      'withReturnType:function',
    ]);
  });

  it('reads CommonJS exports: object literal, module.exports.x, exports.x and a whole-module export', () => {
    const source = [
      'function a() {}',
      'class B {}',
      'const c = 1;',
      "const d = require('./d');",
      'module.exports = { a, B, c, d, e: () => 1, f: function () {}, g() {}, async h() {}, get i() { return 1; }, ...rest, "quoted-key": 1 };',
      'module.exports.j = class {};',
      'exports.k = 42;',
      'exports.l = a;',
    ].join('\n');
    expect(names(source)).toEqual([
      'B:class',
      'a:function',
      'c:value',
      'd:value',
      'e:function',
      'f:function',
      'g:function',
      'h:function',
      'i:value',
      'j:class',
      'k:value',
      'l:function',
    ]);
    expect(names('module.exports = class Service {};')).toEqual(['module.exports:class']);
    expect(names("module.exports = require('./impl');")).toEqual(['module.exports:value']);
  });

  it('ignores what is in comments, strings, template literals, regexes and nested blocks', () => {
    const source = [
      '// export const lineComment = 1;',
      '/* export function blockComment() {} */',
      "const s = 'export const single = 1; module.exports = { x }';",
      'const t = `export const template = ${"export const nested = 1"}`;',
      'const r = /export const regex = 1/g;',
      'function wrapper() {',
      '  exports.insideFunction = 1;',
      '  if (true) { module.exports.insideBlock = 2; }',
      '}',
      "declare module 'x' { export const ambient: number; }",
      'export const real = 1;',
    ].join('\n');
    // CommonJS assignments count at any depth (UMD wrappers set them inside a block); ES exports only at the top level.
    expect(names(source)).toEqual(['insideBlock:value', 'insideFunction:value', 'real:value']);
    expect(maskJs("a = 'b'; // c\nd")).toBe("a = ' ';     \nd");
  });

  it('tells a module from a script', () => {
    expect(hasEsmSyntax('import x from "y";\nx();')).toBe(true);
    expect(hasEsmSyntax('export {};')).toBe(true);
    expect(hasEsmSyntax('const x = import("y");\n// export const a = 1\n')).toBe(false);
  });
});

describe('findPythonDefinitions', () => {
  it('finds public top-level functions and classes, not nested, private or quoted ones', () => {
    const source = [
      '"""Module.',
      'def in_docstring():',
      '"""',
      '# def in_comment():',
      'import os',
      '',
      'def public(a):',
      '    def nested():',
      '        pass',
      '    return a',
      '',
      'async def coroutine():',
      '    pass',
      '',
      'def _private():',
      '    pass',
      '',
      'class Model(Base):',
      '    def method(self):',
      '        pass',
      '',
      'class Plain:',
      '    pass',
      '',
      'class _Hidden:',
      '    pass',
      "TEXT = '''",
      'def in_string():',
      "'''",
    ].join('\n');
    expect(findPythonDefinitions(source)).toEqual([
      { name: 'Model', kind: 'class' },
      { name: 'Plain', kind: 'class' },
      { name: 'coroutine', kind: 'function' },
      { name: 'public', kind: 'function' },
    ]);
  });
});
