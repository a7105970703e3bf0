import { type LockedPackage, linesOf, uniquePackages } from './types';

const registryVersion = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;
/** Ranges that are not resolved from the registry: git, tarball URL, file, link, workspace, GitHub shorthand. */
const nonRegistryRange = /^(?:file:|link:|portal:|workspace:|patch:|exec:|git[+:@]|github:|gitlab:|bitbucket:|https?:)|^[^@/]+\/[^/]+$/;

export interface YarnEntry {
  /** 1-based line of the entry's header (`"name@range", "name@range2":`). */
  line: number;
  /** 1-based line of its `version` field, or null. */
  versionLine: number | null;
  specifiers: string[];
  fields: Map<string, string>;
}

const unquote = (value: string): string => {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
};

/** The top-level entries of a yarn.lock (classic v1 or berry), with their 2-space-indented scalar fields. */
export const yarnEntries = (text: string): YarnEntry[] => {
  const entries: YarnEntry[] = [];
  let current: YarnEntry | null = null;
  linesOf(text).forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    if (!/^\s/.test(line)) {
      current = null;
      if (!line.endsWith(':')) return;
      const specifiers = line
        .slice(0, -1)
        .split(',')
        .map((spec) => unquote(spec.replace(/^\s*"|"\s*$/g, '')))
        .filter((spec) => spec !== '');
      current = { line: index + 1, versionLine: null, specifiers, fields: new Map() };
      entries.push(current);
      return;
    }
    const field = /^ {2}([^\s:"]+|"[^"]+"):?\s+(.*)$/.exec(line);
    if (!current || !field || /^ {3}/.test(line)) return;
    const entry: YarnEntry = current;
    const key = unquote(field[1] ?? '');
    if (key === 'version') entry.versionLine = index + 1;
    entry.fields.set(key, unquote(field[2] ?? ''));
  });
  return entries;
};

/** Splits `name@range` (scoped names keep their leading `@`). */
export const splitSpecifier = (spec: string): { name: string; range: string } | null => {
  const at = spec.indexOf('@', 1);
  if (at <= 0) return null;
  return { name: spec.slice(0, at), range: spec.slice(at + 1) };
};

/** The registry package an `npm:` alias range points at (`npm:real@^1` → real), or null. */
const aliasTarget = (range: string): string | null => /^npm:((?:@[^/@]+\/)?[^@]+)@/.exec(range)?.[1] ?? null;

/**
 * yarn.lock. Classic v1 (`version "1.2.3"`): the package is named by its first specifier
 * (`npm:` aliases by their target); berry (`version: 1.2.3`): by its `resolution`
 * (`name@npm:1.2.3`; workspace, patch, git, file, link and other protocols are skipped).
 */
export const readYarnLock = (text: string, manifest: string): LockedPackage[] => {
  const found: LockedPackage[] = [];
  for (const entry of yarnEntries(text)) {
    const version = entry.fields.get('version');
    if (!version || !registryVersion.test(version)) continue;
    const resolution = entry.fields.get('resolution');
    if (resolution !== undefined) {
      const match = /^((?:@[^/@]+\/)?[^@]+)@npm:(.+)$/.exec(resolution);
      if (match?.[1]) found.push({ ecosystem: 'npm', name: match[1], version, manifest, line: entry.line });
      continue;
    }
    const spec = entry.specifiers[0] ? splitSpecifier(entry.specifiers[0]) : null;
    if (!spec) continue;
    const target = aliasTarget(spec.range);
    const range = target ? spec.range.slice(spec.range.indexOf('@', 5) + 1) : spec.range;
    const resolved = entry.fields.get('resolved') ?? '';
    if (nonRegistryRange.test(range) || /^(?:git\+|git:|file:)|codeload\.github\.com/.test(resolved)) continue;
    found.push({ ecosystem: 'npm', name: target ?? spec.name, version, manifest, line: entry.line });
  }
  return uniquePackages(found);
};
