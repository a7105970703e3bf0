import { tomlPackageTables } from './toml-tables';
import { type LockedPackage, uniquePackages } from './types';

/** crates.io's index, git (`registry+`) and sparse (`sparse+`). */
const cratesIo = /^(?:registry\+https:\/\/github\.com\/rust-lang\/crates\.io-index|sparse\+https:\/\/index\.crates\.io\/?)$/;

/**
 * Cargo.lock: each `[[package]]` from crates.io (line of its `name`). Workspace members (no
 * `source`), git dependencies and other registries are skipped: crates.io advisories do not apply.
 */
export const readCargoLock = (text: string, manifest: string): LockedPackage[] =>
  uniquePackages(
    tomlPackageTables(text).flatMap((table): LockedPackage[] => {
      const name = table.fields.get('name');
      const version = table.fields.get('version');
      const source = table.fields.get('source')?.value;
      if (!name?.value || !version?.value || !source || !cratesIo.test(source)) return [];
      return [{ ecosystem: 'crates.io', name: name.value, version: version.value, manifest, line: name.line }];
    }),
  );
