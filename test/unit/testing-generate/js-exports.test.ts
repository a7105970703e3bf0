import { type JsModuleReader, jsModuleReader } from '../../../functions/engines/testing/js-exports';

let read: JsModuleReader;
beforeAll(async () => {
  read = await jsModuleReader();
});

/** `name:kind` of each export, sorted by name; TypeScript unless another file name is given. */
const names = (source: string, path = 'module.ts'): string[] => read(path, source).exports.map((found) => `${found.name}:${found.kind}`);

describe('JavaScript and TypeScript exports', () => {
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
    expect(names(source, 'module.js')).toEqual([
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
    expect(names('export default async function () { await 1; }')).toEqual(['default:function']);
    expect(names('export default async () => {};')).toEqual(['default:function']);
    expect(names('export default function* () {}')).toEqual(['default:function']);
    expect(names('export default class {}')).toEqual(['default:class']);
    expect(names('export default abstract class Shape {}')).toEqual(['default:class']);
    expect(names('export default (a) => a;')).toEqual(['default:function']);
    expect(names('export default (function () {});')).toEqual(['default:function']);
    expect(names('export default { a: 1 };')).toEqual(['default:value']);
    expect(names('function run() {}\nexport default run;')).toEqual(['default:function']);
    expect(names('export default interface Shape { sides: number }')).toEqual([]);
  });

  it('reads renamed, default and string-named entries of export lists', () => {
    const source = [
      'function a() {}',
      'class B {}',
      'const c = 1;',
      'export { a as b, B as default, c as "c-value", a as "a function" };',
      "export { default } from './base.js';",
      "export { default as Widget, helper as 'helper-name' } from './widget.js';",
    ].join('\n');
    // A local's kind follows it under any name; a re-export's is unknown (another file) and so a value.
    expect(names(source)).toEqual(
      ['a function:function', 'b:function', 'c-value:value', 'default:class', 'helper-name:value', 'Widget:value'].sort(),
    );
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
      'export declare class Ambient {}',
      'export declare namespace AmbientSpace { const x: number; }',
      'export declare enum AmbientEnum { Z }',
      'declare global { interface Window { x: number } }',
      'export namespace OnlyTypes { export type T = 1; export interface U {} }',
      'export type * from "./types";',
      'export type * as AllTypes from "./types";',
      'import type { Imported } from "./imported";',
      'export { Imported };',
    ].join('\n');
    // A namespace that holds values is an object at run time (TypeScript emits it); one of types only is not.
    expect(names(source)).toEqual([
      'Base:class',
      'G:value',
      'J:value',
      'config:value',
      'generic:function',
      'overloaded:function',
      'typed:function',
      'withReturnType:function',
    ]);
  });

  it('reads what the regular expressions missed: destructuring, merged names, wrapped initializers, aliases, decorators', () => {
    const source = [
      'export const { first, second: [third, , fourth], ...rest } = load();',
      'export let one = 1, two = () => 2;',
      'export interface Point { x: number }',
      'export const Point = (x: number): Point => ({ x });',
      'interface Shape {}',
      'const Shape = class {};',
      'export { Shape };',
      'export const asserted = (() => 1) as () => number;',
      'export const checked = ((n: number) => n) satisfies (n: number) => number;',
      'export const nonNull = factory!;',
      'namespace Util { export const x = 1; }',
      'export import Alias = Util.x;',
      'const aliasOfAlias = two;',
      'export { aliasOfAlias };',
      "@Component({ selector: 'export const fakeInDecorator = 1' })",
      'export class Widget {}',
      'export @sealed class Sealed {',
      '  @logged method() { return "export const fakeInMethod = 1"; }',
      '}',
      'export function overloadedDefault(a: string): void;',
      'export function overloadedDefault(a?: string) {}',
      'const cycleA = cycleB, cycleB = cycleA;',
      'export { cycleA };',
    ].join('\n');
    expect(names(source)).toEqual([
      'Alias:value',
      'Point:function',
      'Sealed:class',
      'Shape:class',
      'Widget:class',
      'aliasOfAlias:function',
      'asserted:function',
      'checked:function',
      'cycleA:value',
      'first:value',
      'fourth:value',
      'nonNull:value',
      'one:value',
      'overloadedDefault:function',
      'rest:value',
      'third:value',
      'two:function',
    ]);
    expect(names('export default @dec class {}')).toEqual(['default:class']);
  });

  it('reads CommonJS exports: object literal, module.exports.x, exports.x and a whole-module export', () => {
    const source = [
      'function a() {}',
      'class B {}',
      'const c = 1;',
      "const d = require('./d');",
      'module.exports = { a, B, c, d, e: () => 1, f: function () {}, g() {}, async h() {}, get i() { return 1; }, ...rest, "quoted-key": 1, [`computed`]: class {}, 7: "seven" };',
      'module.exports.j = class {};',
      'exports.k = 42;',
      'exports.l = a;',
      "exports['m-n'] = () => 1;",
    ].join('\n');
    expect(names(source, 'module.js')).toEqual([
      '7:value',
      'B:class',
      'a:function',
      'c:value',
      'computed:class',
      'd:value',
      'e:function',
      'f:function',
      'g:function',
      'h:function',
      'i:value',
      'j:class',
      'k:value',
      'l:function',
      'm-n:function',
      'quoted-key:value',
    ]);
    expect(names('module.exports = class Service {};', 'module.js')).toEqual(['module.exports:class']);
    expect(names("module.exports = require('./impl');", 'module.js')).toEqual(['module.exports:value']);
    expect(names('function greet() {}\nmodule.exports = greet;\nmodule.exports.helper = () => 1;', 'module.js')).toEqual([
      'helper:function',
      'module.exports:function',
    ]);
  });

  it("reads TypeScript's own CommonJS output: placeholders first, then the values, and defineProperty re-exports", () => {
    const source = [
      '"use strict";',
      'Object.defineProperty(exports, "__esModule", { value: true });',
      'exports.Store = exports.greet = exports.LIMIT = void 0;',
      'exports.load = load;',
      'var other_1 = require("./other");',
      'Object.defineProperty(exports, "reexported", { enumerable: true, get: function () { return other_1.reexported; } });',
      'Object.defineProperty(exports, "defined", { value: function () {} });',
      'const greet = (name) => `hi ${name}`;',
      'exports.greet = greet;',
      'async function load() {}',
      'exports.LIMIT = 10;',
      'class Store {}',
      'exports.Store = Store;',
      'exports.default = Store;',
      'exports.greet = 1;',
    ].join('\n');
    expect(names(source, 'module.js')).toEqual([
      'LIMIT:value',
      'Store:class',
      'default:class',
      'defined:function',
      'greet:function',
      'load:function',
      'reexported:value',
    ]);
  });

  it("reads TypeScript's export = as the module itself, or its object's keys", () => {
    const whole = read('legacy.ts', 'function legacy(): number { return 1; }\nexport = legacy;\n');
    expect(whole).toEqual({ exports: [{ name: 'module.exports', kind: 'function' }], isModule: true, exportAssignment: true });
    expect(names('const a = () => 1;\nexport = { a, b: class {}, c: 3 };')).toEqual(['a:function', 'b:class', 'c:value']);
    expect(read('plain.ts', 'export const a = 1;').exportAssignment).toBe(false);
  });

  it('ignores what is in comments, strings, template literals, regexes, JSX text and nested blocks', () => {
    const source = [
      '// export const lineComment = 1;',
      '/* export function blockComment() {} */',
      "const s = 'export const single = 1; module.exports = { x }';",
      'const t = `export const template = ${"export const nested = 1"} ${`${{ a: "}" }.a}`} export const after = 1`;',
      'const r = /export const regex = 1/g;',
      'const c = /[/]export const inClass = 1/;',
      'if (s) /export const afterParen = 1/.test(s);',
      'function wrapper() {',
      '  exports.insideFunction = 1;',
      '  if (true) { module.exports.insideBlock = 2; }',
      '}',
      "declare module 'x' { export const ambient: number; }",
      'export const real = 1;',
    ].join('\n');
    // CommonJS assignments count at any depth (UMD wrappers set them inside a block); ES exports only at the top level.
    expect(names(source)).toEqual(['insideBlock:value', 'insideFunction:value', 'real:value']);
  });

  it('reads JSX and TSX sources', () => {
    const jsx = [
      'export const App = () => <div className="app">export const fakeInText = 1 {"}"}</div>;',
      'export default function Page() {',
      '  return <App>{/* export const fakeInComment = 1 */}</App>;',
      '}',
      'export class Panel extends Component { render() { return <p>{this.props.title}</p>; } }',
    ].join('\n');
    expect(names(jsx, 'app.js')).toEqual(['App:function', 'Panel:class', 'default:function']);
    expect(names(jsx, 'app.jsx')).toEqual(['App:function', 'Panel:class', 'default:function']);
    const tsx = [
      'export const identity = <T,>(value: T): T => value;',
      'export interface Props { title: string }',
      'export const Title = ({ title }: Props) => <h1>{title}</h1>;',
      'export const element = <Title title="export const fake = 1" />;',
    ].join('\n');
    expect(names(tsx, 'title.tsx')).toEqual(['Title:function', 'element:value', 'identity:function']);
  });

  it('tells a module from a script', () => {
    const isModule = (source: string, path = 'file.ts'): boolean => read(path, source).isModule;
    expect(isModule('import x from "y";\nx();')).toBe(true);
    expect(isModule('export {};')).toBe(true);
    expect(isModule('import fs = require("node:fs");\nfs.readFileSync("x");')).toBe(true);
    expect(isModule('console.log(import.meta.url);', 'file.mjs')).toBe(true);
    expect(isModule('const x = import("y");\n// export const a = 1\n')).toBe(false);
    expect(isModule('const s = "import x from \'y\'";\nmodule.exports = s;', 'file.js')).toBe(false);
  });

  it('reads a source that does not parse as far as it can, without throwing', () => {
    expect(names('export const ok = () => 1;\nexport function broken( {\n', 'broken.js')).toEqual(['broken:function', 'ok:function']);
    expect(names('', 'empty.js')).toEqual([]);
  });
});
