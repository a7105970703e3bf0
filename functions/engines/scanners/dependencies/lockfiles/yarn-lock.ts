import { parseSyml } from '@yarnpkg/parsers';
import { type LockedPackage, linesOf, uniquePackages } from './types';

const registryVersion = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;
/** Ranges that are not resolved from the registry: git, tarball URL, file, link, workspace, GitHub shorthand. */
const nonRegistryRange = /^(?:file:|link:|portal:|workspace:|patch:|exec:|git[+:@]|github:|gitlab:|bitbucket:|https?:)|^[^@/]+\/[^/]+$/;

const unquote = (value: string): string => value.trim().replace(/^"(.*)"$/, '$1');

/** Where each entry starts: the 1-based line of every specifier of every top-level header. */
const headerLines = (text: string): Map<string, number> => {
  const lines = new Map<string, number>();
  linesOf(text).forEach((line, index) => {
    if (/^[\s#]/.test(line) || !line.endsWith(':')) return;
    const header = line.slice(0, -1);
    for (const key of [unquote(header), ...header.split(',').map(unquote)]) if (!lines.has(key)) lines.set(key, index + 1);
  });
  return lines;
};

/** Splits `name@range` (scoped names keep their leading `@`). */
export const splitSpecifier = (spec: string): { name: string; range: string } | null => {
  const at = spec.indexOf('@', 1);
  if (at <= 0) return null;
  return { name: spec.slice(0, at), range: spec.slice(at + 1) };
};

/** The registry package an `npm:` alias range points at (`npm:real@^1` → real), or null. */
const aliasTarget = (range: string): string | null => /^npm:((?:@[^/@]+\/)?[^@]+)@/.exec(range)?.[1] ?? null;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringField = (entry: Record<string, unknown>, key: string): string | undefined =>
  typeof entry[key] === 'string' || typeof entry[key] === 'number' ? String(entry[key]) : undefined;

/**
 * yarn.lock, read by `@yarnpkg/parsers` (classic v1 and berry's YAML). Classic v1
 * (`version "1.2.3"`): the package is named by its first specifier (`npm:` aliases by their
 * target); berry (`version: 1.2.3`): by its `resolution` (`name@npm:1.2.3`; workspace, patch, git,
 * file, link and other protocols are skipped). The line is the entry's header.
 */
export const readYarnLock = (text: string, manifest: string): LockedPackage[] => {
  // Berry's files are YAML with `__metadata`; anything else is classic, which the parser recognises by its header comment.
  const classic = !/^__metadata:/m.test(text) && !/^#\s*yarn lockfile v1/im.test(text);
  const document = parseSyml(classic ? `# yarn lockfile v1\n${text}` : text) as Record<string, unknown>;
  const lines = headerLines(text);
  const seen = new Set<unknown>();
  const found: LockedPackage[] = [];
  for (const [key, entry] of Object.entries(document)) {
    // Classic v1 gives every specifier of a header its own key, all holding the same entry.
    if (key === '__metadata' || !isRecord(entry) || seen.has(entry)) continue;
    seen.add(entry);
    const line = lines.get(key) ?? 1;
    const version = stringField(entry, 'version');
    if (!version || !registryVersion.test(version)) continue;
    const resolution = stringField(entry, 'resolution');
    if (resolution !== undefined) {
      const match = /^((?:@[^/@]+\/)?[^@]+)@npm:(.+)$/.exec(resolution);
      if (match?.[1]) found.push({ ecosystem: 'npm', name: match[1], version, manifest, line });
      continue;
    }
    const spec = splitSpecifier(key.split(',')[0]?.trim() ?? '');
    if (!spec) continue;
    const target = aliasTarget(spec.range);
    const range = target ? spec.range.slice(spec.range.indexOf('@', 5) + 1) : spec.range;
    const resolved = stringField(entry, 'resolved') ?? '';
    if (nonRegistryRange.test(range) || /^(?:git\+|git:|file:)|codeload\.github\.com/.test(resolved)) continue;
    found.push({ ecosystem: 'npm', name: target ?? spec.name, version, manifest, line });
  }
  return uniquePackages(found);
};
