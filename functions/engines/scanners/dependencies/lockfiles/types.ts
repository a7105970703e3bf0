/** The OSV ecosystems the dependencies scanner reads lockfiles for (OSV's own spelling). */
export const ecosystems = ['npm', 'PyPI', 'Go', 'crates.io'] as const;
export type Ecosystem = (typeof ecosystems)[number];

/** One resolved package version a lockfile pins. */
export interface LockedPackage {
  ecosystem: Ecosystem;
  /** As the lockfile spells it (PyPI names are compared normalised, see `normalizePackageName`). */
  name: string;
  /** As the lockfile spells it (Go keeps its leading `v` and any `+incompatible`). */
  version: string;
  /** Repository-relative path of the lockfile, `/`-separated. */
  manifest: string;
  /** 1-based line of the package's entry in the lockfile, null when unknown. */
  line: number | null;
}

/** PEP 503 normalisation for PyPI (`Foo_Bar.baz` → `foo-bar-baz`); other ecosystems are case-sensitive. */
export const normalizePackageName = (ecosystem: string, name: string): string =>
  ecosystem === 'PyPI' ? name.toLowerCase().replace(/[-_.]+/g, '-') : name;

/** Keeps the first entry of each (name, version) — the line of its first appearance. */
export const uniquePackages = (packages: LockedPackage[]): LockedPackage[] => {
  const seen = new Set<string>();
  return packages.filter((entry) => {
    const key = `${entry.ecosystem}\0${normalizePackageName(entry.ecosystem, entry.name)}\0${entry.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Splits text into lines, without their terminators (`\n` or `\r\n`). */
export const linesOf = (text: string): string[] => text.split(/\r?\n/);
