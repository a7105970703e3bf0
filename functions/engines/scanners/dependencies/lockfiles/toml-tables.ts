import { linesOf } from './types';

export interface TomlField {
  value: string;
  /** 1-based. */
  line: number;
}

export interface TomlPackageTable {
  /** 1-based line of `[[package]]`. */
  line: number;
  fields: Map<string, TomlField>;
  /** Sub-tables such as `[package.source]`, by name (`source`). */
  subtables: Map<string, Map<string, TomlField>>;
}

const unescapeBasic = (value: string): string =>
  value.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[escape] ?? escape;
  });

const stringField = /^\s*([A-Za-z0-9_-]+|"[^"]*")\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/;

/**
 * The `[[package]]` tables of a machine-written TOML lockfile (poetry.lock, Cargo.lock): their
 * single-line string fields, and those of their `[package.x]` sub-tables. Not a TOML parser: other
 * values (arrays, inline tables, numbers) are skipped, multi-line strings stepped over.
 */
export const tomlPackageTables = (text: string): TomlPackageTable[] => {
  const tables: TomlPackageTable[] = [];
  let current: TomlPackageTable | null = null;
  let target: Map<string, TomlField> | null = null;
  let openString: '"""' | "'''" | null = null;
  linesOf(text).forEach((line, index) => {
    if (openString) {
      if (line.includes(openString)) openString = null;
      return;
    }
    const multiline = /=\s*("""|''')/.exec(line);
    if (multiline?.[1]) {
      const rest = line.slice((multiline.index ?? 0) + multiline[0].length);
      if (!rest.includes(multiline[1])) openString = multiline[1] as '"""' | "'''";
      return;
    }
    const header = /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header?.[2]) {
      const name = header[2];
      if (header[1] === '[[' && name === 'package') {
        current = { line: index + 1, fields: new Map(), subtables: new Map() };
        tables.push(current);
        target = current.fields;
      } else if (current && name.startsWith('package.')) {
        const sub = name.slice('package.'.length);
        const table: TomlPackageTable = current;
        target = table.subtables.get(sub) ?? new Map();
        table.subtables.set(sub, target);
      } else {
        current = null;
        target = null;
      }
      return;
    }
    const field = target ? stringField.exec(line) : null;
    if (!target || !field?.[1]) return;
    const key = field[1].replace(/^"|"$/g, '');
    const value = field[2] !== undefined ? unescapeBasic(field[2]) : (field[3] ?? '');
    if (!target.has(key)) target.set(key, { value, line: index + 1 });
  });
  return tables;
};
