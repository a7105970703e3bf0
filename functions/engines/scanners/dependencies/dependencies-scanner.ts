import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Coverage, RawFinding, ScanResult, Scanner } from '../../../core/security/scanner';
import { type AdvisorySource, advisoryKey, type OsvVulnerability, type PackageQuery } from './advisories';
import { severityOf } from './advisory-severity';
import { type LockedPackage, type LockfileKind, lockfileKindOf, lockfileReaders } from './lockfiles';
import { parseRequirementsTxt } from './lockfiles/requirements-txt';
import { affectedEntriesFor, fixedVersionAbove } from './osv-match';
import { baseNameOf, findFiles, folderAndParents, folderOf } from './tree';

export interface DependenciesScannerOptions {
  /** Lockfiles larger than this are not read (listed as not covered). Default 64 MiB. */
  maxLockfileBytes?: number;
}

export const defaultMaxLockfileBytes = 64 * 1024 * 1024;

/** Manifests that declare dependencies whose resolved versions only a lockfile knows. */
const manifestNames = ['package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml'] as const;
type ManifestName = (typeof manifestNames)[number];

/** Lockfiles of other package managers: present, but not read by this scanner. */
const unsupportedLockfiles: ReadonlySet<string> = new Set([
  'bun.lock',
  'bun.lockb',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'Gemfile.lock',
  'composer.lock',
  'packages.lock.json',
  'gradle.lockfile',
  'pubspec.lock',
  'mix.lock',
  'Package.resolved',
]);

const npmLockfiles: LockfileKind[] = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml'];

/** Which lockfiles cover a manifest, where they may be (beside it, or in a parent folder for workspaces), and why it is not covered otherwise. */
const manifestRules: Record<ManifestName, { lockfiles: LockfileKind[]; parents: boolean; reason: string }> = {
  'package.json': {
    lockfiles: npmLockfiles,
    parents: true,
    reason:
      'dependencies declared without a lockfile (package-lock.json, npm-shrinkwrap.json, yarn.lock or pnpm-lock.yaml) beside it or in a parent folder',
  },
  'pyproject.toml': {
    lockfiles: ['poetry.lock', 'requirements.txt'],
    parents: true,
    reason: 'dependencies declared without a poetry.lock (or pinned requirements*.txt) beside it or in a parent folder',
  },
  'go.mod': { lockfiles: ['go.sum'], parents: false, reason: 'requirements declared without a go.sum beside it' },
  'Cargo.toml': {
    lockfiles: ['Cargo.lock'],
    parents: true,
    reason: 'dependencies declared without a Cargo.lock beside it or in a parent (workspace) folder',
  },
};

/** Whether a manifest declares any dependency at all (one that declares none needs no lockfile). */
const declaresDependencies = (name: ManifestName, text: string): boolean => {
  switch (name) {
    case 'package.json': {
      try {
        const manifest = JSON.parse(text) as Record<string, unknown>;
        return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
          const section = manifest[field];
          return typeof section === 'object' && section !== null && Object.keys(section).length > 0;
        });
      } catch {
        return true; // unreadable: assume it does, never report it clean
      }
    }
    case 'pyproject.toml':
      return (
        /^\s*\[tool\.poetry(?:\.group\.[^\]]+)?\.(?:dev-)?dependencies\]/m.test(text) ||
        /^\s*dependencies\s*=\s*\[\s*(?:#[^\n]*\n\s*)*[^\]\s#]/m.test(text)
      );
    case 'go.mod':
      return /^\s*require\b/m.test(text);
    case 'Cargo.toml':
      return /^\s*\[(?:[^\]]*\.)?(?:dev-|build-)?dependencies(?:\.[^\]]+)?\]/m.test(text);
  }
};

const osvUrl = (id: string): string => `https://osv.dev/vulnerability/${encodeURIComponent(id)}`;

const firstLine = (text: string | undefined): string | undefined => text?.trim().split(/\r?\n/)[0]?.trim() || undefined;

const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const findingOf = (entry: LockedPackage, vulnerability: OsvVulnerability): RawFinding => {
  const query: PackageQuery = { ecosystem: entry.ecosystem, name: entry.name, version: entry.version };
  const entries = affectedEntriesFor(vulnerability, query);
  const rating = severityOf(vulnerability, entries);
  const fixed = fixedVersionAbove(vulnerability, query);
  const summary = truncate(vulnerability.summary?.trim() || firstLine(vulnerability.details) || vulnerability.id, 200);
  const remedy = fixed ? `Fixed in ${entry.name} ${fixed}.` : 'No fixed version is known.';
  const body = vulnerability.details?.trim() || summary;
  return {
    type: 'dependencies',
    rule_id: vulnerability.id,
    severity: rating.severity,
    title: `${entry.name}@${entry.version}: ${summary}`,
    description: `${truncate(body, 4000)}\n\n${remedy}`,
    location: { path: entry.manifest, line: entry.line },
    snippet: `${entry.ecosystem}:${entry.name}@${entry.version}:${vulnerability.id}`,
    excerpt: `${entry.name}@${entry.version}`,
    details: {
      ecosystem: entry.ecosystem,
      package: entry.name,
      installed_version: entry.version,
      fixed_version: fixed,
      aliases: vulnerability.aliases ?? [],
      advisory_url: osvUrl(vulnerability.id),
      lockfile: entry.manifest,
      severity_source: rating.source,
      cvss_score: rating.cvss_score,
      cvss_vector: rating.cvss_vector,
    },
  };
};

type Uncovered = Coverage['not_covered'][number];

/** Groups (kind, reason) pairs with the number of distinct files. */
const groupUncovered = (items: Array<{ kind: string; reason: string; path: string }>): Uncovered[] => {
  const groups = new Map<string, { kind: string; reason: string; paths: Set<string> }>();
  for (const item of items) {
    const key = `${item.kind}\0${item.reason}`;
    const group = groups.get(key) ?? { kind: item.kind, reason: item.reason, paths: new Set() };
    group.paths.add(item.path);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ kind, reason, paths }) => ({ kind, files: paths.size, reason }))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.reason.localeCompare(b.reason));
};

/**
 * The `dependencies` scanner: reads every supported lockfile in the tree (see lockfiles/), asks
 * the advisory source about each pinned package version once, and reports one finding per
 * (lockfile, package version, vulnerability). An unavailable advisory source fails the scan
 * (the error propagates): a scan that could not check must not resolve earlier findings.
 */
export const dependenciesScanner = (source: AdvisorySource, options: DependenciesScannerOptions = {}): Scanner => ({
  type: 'dependencies',
  async scan(root: string): Promise<ScanResult> {
    const maxBytes = options.maxLockfileBytes ?? defaultMaxLockfileBytes;
    const paths = await findFiles(
      root,
      (path) =>
        lockfileKindOf(path) !== null ||
        (manifestNames as readonly string[]).includes(baseNameOf(path)) ||
        unsupportedLockfiles.has(baseNameOf(path)),
    );
    const errors: string[] = [];
    const uncovered: Array<{ kind: string; reason: string; path: string }> = [];
    const packages: LockedPackage[] = [];
    const covered = new Set<string>();
    /** Folder → lockfile kinds read there. */
    const lockfilesByFolder = new Map<string, Set<LockfileKind>>();
    let filesScanned = 0;

    const readText = async (path: string, kind: string): Promise<string | null> => {
      const absolute = join(root, ...path.split('/'));
      try {
        const { size } = await stat(absolute);
        if (size > maxBytes) {
          uncovered.push({ kind, path, reason: `larger than ${Math.floor(maxBytes / (1024 * 1024))} MiB` });
          return null;
        }
        return await readFile(absolute, 'utf8');
      } catch (error) {
        errors.push(`${path}: could not be read (${(error as Error).message})`);
        uncovered.push({ kind, path, reason: 'could not be read' });
        return null;
      }
    };

    for (const path of paths) {
      const kind = lockfileKindOf(path);
      if (!kind) continue;
      const text = await readText(path, kind);
      if (text === null) continue;
      filesScanned += 1;
      try {
        if (kind === 'requirements.txt') {
          const read = parseRequirementsTxt(text, path);
          packages.push(...read.packages);
          for (const item of read.unpinned) uncovered.push({ kind, path, reason: item.reason });
        } else {
          packages.push(...lockfileReaders[kind](text, path));
        }
      } catch (error) {
        errors.push(`${path}: could not be parsed (${(error as Error).message})`);
        uncovered.push({ kind, path, reason: 'could not be parsed' });
        continue;
      }
      covered.add(kind);
      const folder = folderOf(path);
      const kinds = lockfilesByFolder.get(folder) ?? new Set();
      kinds.add(kind);
      lockfilesByFolder.set(folder, kinds);
    }

    for (const path of paths) {
      const name = baseNameOf(path);
      if (unsupportedLockfiles.has(name)) {
        uncovered.push({ kind: name, path, reason: 'lockfile format not read by the dependencies scanner' });
        continue;
      }
      if (lockfileKindOf(path) || !(manifestNames as readonly string[]).includes(name)) continue;
      const manifest = name as ManifestName;
      const rule = manifestRules[manifest];
      const folders = rule.parents ? folderAndParents(folderOf(path)) : [folderOf(path)];
      if (folders.some((folder) => rule.lockfiles.some((kind) => lockfilesByFolder.get(folder)?.has(kind)))) continue;
      const text = await readText(path, manifest);
      if (text === null) continue;
      filesScanned += 1;
      if (declaresDependencies(manifest, text)) uncovered.push({ kind: manifest, path, reason: rule.reason });
    }

    const queries = new Map<string, PackageQuery>();
    for (const entry of packages) {
      const query = { ecosystem: entry.ecosystem, name: entry.name, version: entry.version };
      queries.set(advisoryKey(query), query);
    }
    const answers = queries.size > 0 ? await source.query([...queries.values()]) : new Map<string, OsvVulnerability[]>();

    // Lockfiles of an ecosystem the source holds no advisory for were read but not checked.
    const known = packages.length > 0 ? await source.ecosystemsCovered?.() : undefined;
    if (known) {
      const unchecked = new Map<string, Set<string>>();
      for (const entry of packages) {
        if (known.has(entry.ecosystem)) continue;
        const manifests = unchecked.get(entry.ecosystem) ?? new Set();
        manifests.add(entry.manifest);
        unchecked.set(entry.ecosystem, manifests);
      }
      for (const [ecosystem, manifests] of unchecked) {
        const reason = `no ${ecosystem} advisories are loaded (OSV_ADVISORY_DIR holds none)`;
        for (const manifest of manifests) {
          const kind = lockfileKindOf(manifest) ?? baseNameOf(manifest);
          uncovered.push({ kind, path: manifest, reason });
          covered.delete(kind);
        }
        errors.push(`${[...manifests].sort().join(', ')}: not checked, the advisory source holds no ${ecosystem} advisories`);
      }
    }

    const findings: RawFinding[] = [];
    for (const entry of packages) {
      const seen = new Set<string>();
      for (const vulnerability of answers.get(advisoryKey(entry)) ?? []) {
        if (vulnerability.withdrawn || seen.has(vulnerability.id)) continue;
        seen.add(vulnerability.id);
        findings.push(findingOf(entry, vulnerability));
      }
    }
    findings.sort(
      (a, b) =>
        a.location.path.localeCompare(b.location.path) ||
        (a.location.line ?? 0) - (b.location.line ?? 0) ||
        a.snippet.localeCompare(b.snippet),
    );

    return {
      findings,
      coverage: { files_scanned: filesScanned, covered: [...covered].sort(), not_covered: groupUncovered(uncovered) },
      errors,
    };
  },
});
