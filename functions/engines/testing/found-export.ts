/** What a module exports, as the local provider's smoke tests need it: a name and what it holds. */

export type ExportKind = 'function' | 'class' | 'value';

export interface FoundExport {
  /**
   * The exported name: `default` for an ES default export, `module.exports` for a CommonJS module
   * that is itself the export. Not always an identifier (`export { a as "a-b" }`, `exports["a-b"]`).
   */
  name: string;
  kind: ExportKind;
}

/** The name `module.exports = <expression>` (and TypeScript's `export = <expression>`) is reported under: the module object is the export. */
export const wholeModule = 'module.exports';

/** By name, in code-unit order (the same on every machine). */
export const byName = (found: ReadonlyMap<string, ExportKind>): FoundExport[] =>
  [...found].map(([name, kind]) => ({ name, kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
