import { tomlPackageTables } from './toml-tables';
import { type LockedPackage, uniquePackages } from './types';

/** Poetry source types that are not a package index (git, url, file and directory installs). */
const nonIndexSources = new Set(['git', 'url', 'file', 'directory']);

/** poetry.lock: each `[[package]]`'s name and version (line of its `name`); git, url, file and directory sources skipped. */
export const readPoetryLock = (text: string, manifest: string): LockedPackage[] =>
  uniquePackages(
    tomlPackageTables(text).flatMap((table): LockedPackage[] => {
      const name = table.fields.get('name');
      const version = table.fields.get('version');
      const sourceType = table.subtables.get('source')?.get('type')?.value;
      if (!name?.value || !version?.value || (sourceType && nonIndexSources.has(sourceType))) return [];
      return [{ ecosystem: 'PyPI', name: name.value, version: version.value, manifest, line: name.line }];
    }),
  );
