import { isJsonObject, type Json, parseJsonWithLines } from './json-lines';
import { type LockedPackage, uniquePackages } from './types';

/** A version the npm registry could have served (not a git, file or link reference). */
const registryVersion = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;
const nonRegistryResolved = /^(?:git\+|git:|github:|gitlab:|bitbucket:|file:|link:)/;

const stringField = (entry: { [key: string]: Json }, field: string): string | undefined => {
  const value = entry[field];
  return typeof value === 'string' ? value : undefined;
};

/**
 * package-lock.json / npm-shrinkwrap.json. Lockfile v2 and v3: the `packages` map (`node_modules/...`
 * keys; the root "" and workspace folders skipped, links skipped, aliases by their `name`). v1: the
 * nested `dependencies` tree (aliases written `npm:real@version`). Git, file and link
 * dependencies are skipped: no registry advisory applies to them. Throws on invalid JSON.
 */
export const readPackageLock = (text: string, manifest: string): LockedPackage[] => {
  const { value, lineOf } = parseJsonWithLines(text);
  if (!isJsonObject(value)) throw new SyntaxError('package-lock.json is not a JSON object');
  const found: LockedPackage[] = [];
  const add = (name: string, version: string, line: number | null) => {
    if (name && registryVersion.test(version)) found.push({ ecosystem: 'npm', name, version, manifest, line });
  };

  const packages = value.packages;
  if (isJsonObject(packages) && value.lockfileVersion !== 1) {
    for (const [key, entry] of Object.entries(packages)) {
      if (key === '' || !isJsonObject(entry) || entry.link === true) continue;
      const at = key.lastIndexOf('node_modules/');
      if (at < 0) continue; // a workspace folder, not an installed package
      const resolved = stringField(entry, 'resolved');
      if (resolved && nonRegistryResolved.test(resolved)) continue;
      const version = stringField(entry, 'version');
      if (!version) continue;
      add(stringField(entry, 'name') ?? key.slice(at + 'node_modules/'.length), version, lineOf(packages, key));
    }
    return uniquePackages(found);
  }

  const walk = (dependencies: Json | undefined, depth: number) => {
    if (!isJsonObject(dependencies) || depth > 200) return;
    for (const [key, entry] of Object.entries(dependencies)) {
      if (!isJsonObject(entry)) continue;
      const raw = stringField(entry, 'version');
      const resolved = stringField(entry, 'resolved');
      if (raw && !(resolved && nonRegistryResolved.test(resolved))) {
        const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(raw);
        add(alias?.[1] ?? key, alias?.[2] ?? raw, lineOf(dependencies, key));
      }
      walk(entry.dependencies, depth + 1);
    }
  };
  walk(value.dependencies, 0);
  return uniquePackages(found);
};
