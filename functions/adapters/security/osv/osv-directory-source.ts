import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AdvisorySource,
  AdvisorySourceUnavailable,
  advisoryKey,
  type OsvVulnerability,
} from '../../../engines/scanners/dependencies/advisories';
import { normalizePackageName } from '../../../engines/scanners/dependencies/lockfiles/types';
import { vulnerabilityAffects } from '../../../engines/scanners/dependencies/osv-match';
import { osvRecordOf } from '../../../engines/scanners/dependencies/osv-record';

export interface OsvDirectorySourceOptions {
  /** Files larger than this are skipped. Default 16 MiB. */
  maxFileBytes?: number;
}

interface Loaded {
  /** Paths, sizes and modification times of the files read: the index is rebuilt when they change. */
  signature: string;
  /** `ecosystem \0 normalised name` → the records with an `affected` entry for that package. */
  byPackage: Map<string, OsvVulnerability[]>;
  /** Files that were not OSV records (invalid JSON, no `id`), for diagnostics. */
  skipped: string[];
}

const packageIndexKey = (ecosystem: string, name: string): string => `${ecosystem}\u0000${normalizePackageName(ecosystem, name)}`;

const jsonFiles = async (directory: string): Promise<Array<{ path: string; size: number; mtimeMs: number }>> => {
  const files: Array<{ path: string; size: number; mtimeMs: number }> = [];
  const visit = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) {
        const info = await stat(path);
        files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
      }
    }
  };
  await visit(directory);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};

/**
 * Advisories from a local directory of OSV records (JSON, one vulnerability per file — an array of
 * records is accepted too — in any folder layout, e.g. an unpacked osv.dev ecosystem export).
 * A package version is affected when an `affected` entry names its ecosystem and package
 * (PEP 503-normalised on PyPI) and lists the version in `versions` or contains it in a SEMVER or
 * ECOSYSTEM range (see osv-match.ts and versions.ts). Withdrawn records never match.
 * The index is cached and rebuilt when a file is added, removed or changed. Files that are not
 * OSV records are skipped. A missing or unreadable directory is `AdvisorySourceUnavailable`.
 */
export const osvDirectorySource = (
  directory: string,
  options: OsvDirectorySourceOptions = {},
): AdvisorySource & { skippedFiles(): Promise<string[]> } => {
  const maxFileBytes = options.maxFileBytes ?? 16 * 1024 * 1024;
  let loaded: Loaded | null = null;

  const load = async (): Promise<Loaded> => {
    let files: Awaited<ReturnType<typeof jsonFiles>>;
    try {
      files = await jsonFiles(directory);
    } catch (error) {
      throw new AdvisorySourceUnavailable(`The OSV advisory directory ${directory} cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const signature = files.map((file) => `${file.path}\u0000${file.size}\u0000${file.mtimeMs}`).join('\n');
    if (loaded?.signature === signature) return loaded;
    const byPackage = new Map<string, OsvVulnerability[]>();
    const skipped: string[] = [];
    for (const file of files) {
      if (file.size > maxFileBytes) {
        skipped.push(file.path);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(file.path, 'utf8'));
      } catch {
        skipped.push(file.path);
        continue;
      }
      const records = (Array.isArray(parsed) ? parsed : [parsed]).map(osvRecordOf).filter((record) => record !== null);
      if (records.length === 0) skipped.push(file.path);
      for (const record of records) {
        const keys = new Set(
          (record.affected ?? []).flatMap((entry) => (entry.package ? [packageIndexKey(entry.package.ecosystem, entry.package.name)] : [])),
        );
        for (const key of keys) {
          const list = byPackage.get(key) ?? [];
          list.push(record);
          byPackage.set(key, list);
        }
      }
    }
    loaded = { signature, byPackage, skipped };
    return loaded;
  };

  return {
    async query(packages) {
      const { byPackage } = await load();
      const answers = new Map<string, OsvVulnerability[]>();
      for (const query of packages) {
        const matches = (byPackage.get(packageIndexKey(query.ecosystem, query.name)) ?? []).filter((record) =>
          vulnerabilityAffects(record, query),
        );
        if (matches.length > 0) answers.set(advisoryKey(query), matches);
      }
      return answers;
    },
    async ecosystemsCovered() {
      return new Set([...(await load()).byPackage.keys()].map((key) => key.slice(0, key.indexOf('\u0000'))));
    },
    async skippedFiles() {
      return (await load()).skipped;
    },
  };
};
