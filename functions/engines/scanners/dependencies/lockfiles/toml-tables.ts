import { parse } from 'smol-toml';
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
  /** Sub-tables such as `[package.source]` or `source = { … }`, by name (`source`). */
  subtables: Map<string, Map<string, TomlField>>;
}

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const headerPattern = /^\s*\[(\[)?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const keyLinePattern = (key: string): RegExp =>
  new RegExp(`^\\s*(?:${escapeRegExp(key)}|"${escapeRegExp(key)}"|'${escapeRegExp(key)}')\\s*=`);

/** Where each `[[package]]` table and its keys are in the text: the values come from the parser, the lines from here. */
const packageSections = (lines: string[]): Array<{ start: number; end: number }> => {
  const sections: Array<{ start: number; end: number }> = [];
  let open: { start: number; end: number } | null = null;
  lines.forEach((line, index) => {
    const header = headerPattern.exec(line);
    if (!header?.[2]) return;
    const isPackage = header[1] === '[' && header[2] === 'package';
    // A `[package.x]` sub-table belongs to the package above it; any other header ends it.
    if (open && (isPackage || !header[2].startsWith('package.'))) {
      open.end = index;
      open = null;
    }
    if (isPackage) {
      open = { start: index, end: lines.length };
      sections.push(open);
    }
  });
  return sections;
};

const lineOfKey = (lines: string[], from: number, to: number, key: string, fallback: number): number => {
  const pattern = keyLinePattern(key);
  for (let index = from; index < to; index += 1) if (pattern.test(lines[index] ?? '')) return index + 1;
  return fallback;
};

/** The string fields of a table, each with the line of its key between `from` and `to` (0-based, end exclusive). */
const stringFields = (table: Record<string, unknown>, lines: string[], from: number, to: number, fallback: number) =>
  new Map(
    Object.entries(table)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([key, value]) => [key, { value, line: lineOfKey(lines, from, to, key, fallback) }]),
  );

/**
 * The `[[package]]` tables of a TOML lockfile (poetry.lock, Cargo.lock), read by `smol-toml`:
 * their string fields and those of their sub-tables (`[package.source]` or inline
 * `source = { … }`), each with the line it is on. Invalid TOML throws (the scanner reports the
 * file as not parsed).
 */
export const tomlPackageTables = (text: string): TomlPackageTable[] => {
  const document = parse(text);
  const packages = Array.isArray(document.package) ? (document.package as unknown[]).filter(isTable) : [];
  const lines = linesOf(text);
  const sections = packageSections(lines);
  return packages.map((table, index) => {
    const section = sections[index] ?? { start: 0, end: lines.length };
    const line = section.start + 1;
    const ownEnd = lines.findIndex((text, at) => at > section.start && at < section.end && headerPattern.test(text));
    const fieldsEnd = ownEnd === -1 ? section.end : ownEnd;
    const subtables = new Map<string, Map<string, TomlField>>();
    for (const [name, value] of Object.entries(table)) {
      if (!isTable(value)) continue;
      const header = lines.findIndex(
        (text, at) => at > section.start && at < section.end && headerPattern.exec(text)?.[2] === `package.${name}`,
      );
      if (header === -1) {
        const inline = lineOfKey(lines, section.start, fieldsEnd, name, line);
        subtables.set(name, stringFields(value, lines, inline - 1, inline, inline));
      } else {
        const next = lines.findIndex((text, at) => at > header && at < section.end && headerPattern.test(text));
        subtables.set(name, stringFields(value, lines, header + 1, next === -1 ? section.end : next, header + 1));
      }
    }
    return { line, fields: stringFields(table, lines, section.start + 1, fieldsEnd, line), subtables };
  });
};
