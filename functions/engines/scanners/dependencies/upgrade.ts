import { readFile } from 'node:fs/promises';
import type { FileChange } from '../../../core/workflows/stage-data';
import { UnsafePathError } from '../../../core/workspace/repository-path';
import { resolveForWrite } from '../../../adapters/workspace/safe-path';
import { type LockfileKind, lockfileEcosystem, lockfileKindOf } from './lockfiles';
import { tomlPackageTables } from './lockfiles/toml-tables';
import { type Ecosystem, ecosystems, linesOf, normalizePackageName } from './lockfiles/types';
import { folderOf } from './tree';
import { compareVersions, sameVersion } from './versions';

/**
 * The mechanical remediation of a dependencies finding: the package bumped to its fixed version
 * in the lockfile of the finding and, where the package is declared there as a direct
 * dependency, in the manifest beside it. Full new file contents, never written here.
 *
 * | lockfile | lockfile change | manifest change |
 * |---|---|---|
 * | package-lock.json, npm-shrinkwrap.json | every `node_modules/…/<name>` entry (and v1 `dependencies` entry) at the installed version: `version`, `resolved` (same registry, new tarball), `integrity` removed | package.json `dependencies`, `devDependencies`, `optionalDependencies`, `overrides` and the lockfile's root entry: `^`/`~`/`=`/`>=`/exact ranges get the new version, operator kept |
 * | requirements*.txt | `name==installed` → `name==fixed` (extras, markers kept) | — |
 * | poetry.lock | `version`, and the package's `files` hashes emptied | pyproject.toml `[tool.poetry.*dependencies]` constraints |
 * | Cargo.lock | `version`, the package's `checksum` line removed | Cargo.toml `name = "…"` / `{ version = "…" }` |
 * | go.sum | the module's lines at the installed version removed | go.mod `require` (added as `// indirect` when absent) |
 *
 * What cannot be computed offline is removed, never invented: npm's `integrity`, poetry's file
 * hashes, Cargo's checksum and go.sum's hashes need the package itself (`npm install`,
 * `poetry lock --no-update`, `cargo update -p <name> --precise <version>`, `go mod tidy`
 * restore them); `notes` say so. Dependents' own version requirements are not checked: a
 * major-version fix may need them raised. Not planned (null): yarn.lock and pnpm-lock.yaml (the
 * package manager must re-resolve: their entries are keyed by range), requirements pinned with
 * `--hash` (hash-checking mode needs the new hashes), an advisory without a fixed version, a
 * lockfile that no longer pins the installed version.
 */
export interface UpgradeRequest {
  ecosystem: Ecosystem;
  package: string;
  installed_version: string;
  fixed_version: string;
  /** Repository-relative path of the lockfile the finding is in. */
  lockfile: string;
}

export interface UpgradePlan {
  files: FileChange[];
  /** What a developer still has to run, and what was left as it was. */
  notes: string[];
}

/** The request a finding's `details` describe (see dependencies-scanner.ts), or null when they cannot. */
export const upgradeRequestOf = (details: Record<string, unknown>): UpgradeRequest | null => {
  const { ecosystem, package: name, installed_version: installed, fixed_version: fixed, lockfile } = details;
  if (typeof ecosystem !== 'string' || !(ecosystems as readonly string[]).includes(ecosystem)) return null;
  if (typeof name !== 'string' || typeof installed !== 'string' || typeof fixed !== 'string' || typeof lockfile !== 'string') return null;
  if (!name || !installed || !fixed || !lockfile) return null;
  // Only upwards: a fixed version that is not newer than the installed one is no fix.
  if ((compareVersions(ecosystem, installed, fixed) ?? 0) >= 0) return null;
  return { ecosystem: ecosystem as Ecosystem, package: name, installed_version: installed, fixed_version: fixed, lockfile };
};

/** A repository file's text; null when absent, unsafe (a link, outside the root) or not a file. */
const readRepositoryFile = async (root: string, path: string): Promise<string | null> => {
  try {
    return await readFile(await resolveForWrite(root, path), 'utf8');
  } catch (error) {
    if (error instanceof UnsafePathError) return null;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw error;
  }
};

const siblingPath = (lockfile: string, name: string): string => {
  const folder = folderOf(lockfile);
  return folder ? `${folder}/${name}` : name;
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------- npm

/** The JSON indentation a file uses (npm keeps it when it rewrites): its first indented line's, else 2 spaces. */
const jsonIndent = (text: string): string => /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';

const serializeJson = (value: unknown, original: string): string => {
  const newline = original.includes('\r\n') ? '\r\n' : '\n';
  const body = JSON.stringify(value, null, jsonIndent(original));
  return `${newline === '\n' ? body : body.replace(/\n/g, '\r\n')}${/\r?\n$/.test(original) ? newline : ''}`;
};

/** `^1.2.3` → `^<fixed>` (operator kept) for `^`, `~`, `=`, `>=`, `v` and exact versions below `fixed`; null for other ranges. */
export const bumpNpmRange = (range: string, fixed: string): string | null => {
  const match = /^(\s*(?:\^|~|=|>=|v)?\s*)(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)(\s*)$/.exec(range);
  if (!match || (compareVersions('npm', match[2] ?? '', fixed) ?? 0) >= 0) return null;
  return `${match[1] ?? ''}${fixed}${match[3] ?? ''}`;
};

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Bumps `name`'s range in the dependency sections of a package.json-shaped object; whether anything changed. */
const bumpDeclared = (manifest: JsonObject, name: string, fixed: string, sections: string[]): boolean => {
  let changed = false;
  for (const section of sections) {
    const declared = manifest[section];
    if (!isObject(declared) || typeof declared[name] !== 'string') continue;
    const bumped = bumpNpmRange(declared[name], fixed);
    if (bumped !== null) {
      declared[name] = bumped;
      changed = true;
    }
  }
  return changed;
};

const manifestSections = ['dependencies', 'devDependencies', 'optionalDependencies'];

/** The new tarball on the registry the old one came from (npm's `<registry>/<name>/-/<base>-<version>.tgz`). */
const tarballUrl = (name: string, installed: string, fixed: string, previous: unknown): string => {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (typeof previous === 'string') {
    const match = new RegExp(`^(https?://.+/)-/${escapeRegExp(base)}-${escapeRegExp(installed)}\\.tgz$`).exec(previous);
    if (match?.[1]) return `${match[1]}-/${base}-${fixed}.tgz`;
  }
  return `https://registry.npmjs.org/${name}/-/${base}-${fixed}.tgz`;
};

const planNpm = async (root: string, request: UpgradeRequest, text: string): Promise<UpgradePlan | null> => {
  const { package: name, installed_version: installed, fixed_version: fixed } = request;
  let lock: unknown;
  try {
    lock = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(lock)) return null;
  let bumped = false;
  const bumpEntry = (entry: JsonObject, version: string): void => {
    entry.version = version;
    entry.resolved = tarballUrl(name, installed, fixed, entry.resolved);
    delete entry.integrity;
    bumped = true;
  };

  if (isObject(lock.packages)) {
    for (const [key, entry] of Object.entries(lock.packages)) {
      const at = key.lastIndexOf('node_modules/');
      if (at < 0 || !isObject(entry) || entry.version !== installed) continue;
      const entryName = typeof entry.name === 'string' ? entry.name : key.slice(at + 'node_modules/'.length);
      if (entryName === name) bumpEntry(entry, fixed);
    }
  }
  const walk = (dependencies: unknown, depth: number): void => {
    if (!isObject(dependencies) || depth > 200) return;
    for (const [key, entry] of Object.entries(dependencies)) {
      if (!isObject(entry)) continue;
      if (key === name && entry.version === installed) bumpEntry(entry, fixed);
      else if (entry.version === `npm:${name}@${installed}`) bumpEntry(entry, `npm:${name}@${fixed}`);
      walk(entry.dependencies, depth + 1);
    }
  };
  walk(lock.dependencies, 0);
  if (!bumped) return null;

  const files: FileChange[] = [];
  const notes = [
    `${request.lockfile}: ${name} ${installed} → ${fixed}; its integrity hash was removed: run \`npm install\` to record the new one.`,
  ];
  const rootEntry = isObject(lock.packages) ? lock.packages[''] : undefined;
  if (isObject(rootEntry)) bumpDeclared(rootEntry, name, fixed, manifestSections);

  const manifestPath = siblingPath(request.lockfile, 'package.json');
  const manifestText = await readRepositoryFile(root, manifestPath);
  if (manifestText !== null) {
    let manifest: unknown = null;
    try {
      manifest = JSON.parse(manifestText);
    } catch {
      notes.push(`${manifestPath} could not be parsed and was left as it was.`);
    }
    if (isObject(manifest)) {
      const declared = bumpDeclared(manifest, name, fixed, manifestSections);
      const overridden = isObject(manifest.overrides) && bumpDeclared(manifest, name, fixed, ['overrides']);
      if (declared || overridden) files.push({ path: manifestPath, content: serializeJson(manifest, manifestText) });
    }
  }
  files.unshift({ path: request.lockfile, content: serializeJson(lock, text) });
  return { files, notes };
};

// ---------------------------------------------------------------- PyPI

const requirementLine = /^(\s*)([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\s*(?:\[[^\]]*\])?\s*===?\s*)([A-Za-z0-9][A-Za-z0-9.+!_-]*)/;

const planRequirements = (request: UpgradeRequest, text: string): UpgradePlan | null => {
  const lines = text.split('\n');
  const target = normalizePackageName('PyPI', request.package);
  let bumped = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const match = requirementLine.exec(line);
    if (!match?.[2] || !match[4] || normalizePackageName('PyPI', match[2]) !== target) continue;
    if (!sameVersion('PyPI', match[4], request.installed_version)) continue;
    // Hash-checking mode: the new version's hashes cannot be computed here.
    let logical = line;
    for (let next = index; /\\\s*$/.test(lines[next] ?? '') && next + 1 < lines.length; next += 1) logical += lines[next + 1] ?? '';
    if (/--hash[=\s]/.test(logical)) return null;
    lines[index] = `${match[1] ?? ''}${match[2]}${match[3] ?? ''}${request.fixed_version}${line.slice(match[0].length)}`;
    bumped = true;
  }
  if (!bumped) return null;
  return { files: [{ path: request.lockfile, content: lines.join('\n') }], notes: [] };
};

/** Replaces line `line` (1-based) of `lines` with `replace(old)`. */
const replaceLine = (lines: string[], line: number, replace: (old: string) => string): void => {
  lines[line - 1] = replace(lines[line - 1] ?? '');
};

const tomlVersionValue = (line: string, version: string): string =>
  line.replace(/(=\s*)(["'])[^"']*\2/, (_, prefix: string, quote: string) => `${prefix}${quote}${version}${quote}`);

/** The `[[package]]` tables of a TOML lockfile naming the package at the installed version. */
const lockTables = (text: string, request: UpgradeRequest) => {
  const name = normalizePackageName(request.ecosystem, request.package);
  return tomlPackageTables(text).filter((table) => {
    const tableName = table.fields.get('name')?.value;
    const version = table.fields.get('version')?.value;
    return (
      tableName !== undefined &&
      version !== undefined &&
      normalizePackageName(request.ecosystem, tableName) === name &&
      sameVersion(request.ecosystem, version, request.installed_version)
    );
  });
};

/**
 * Replaces the first multi-line array `key = [ … ]` whose key `keyPattern` accepts, searched from
 * line index `start` until the next table header, with `key = []`; returns the new lines.
 */
const emptyArray = (lines: string[], start: number, keyPattern: RegExp): string[] => {
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (/^\s*\[/.test(line)) return lines; // the next table: none in this one
    const key = keyPattern.exec(line);
    if (!key) continue;
    let end = index;
    for (let depth = 0; end < lines.length; end += 1) {
      for (const char of lines[end] ?? '') {
        if (char === '[') depth += 1;
        else if (char === ']') depth -= 1;
      }
      if (depth <= 0) break;
    }
    return [...lines.slice(0, index), `${key[0].replace(/\[$/, '').trimEnd()} []`, ...lines.slice(end + 1)];
  }
  return lines;
};

/**
 * Bumps a constraint in TOML dependency tables whose header `sections` accepts:
 * `name = "<op>1.2.3"` or `name = { version = "<op>1.2.3", … }`, operator kept, only upwards.
 */
const bumpTomlDeclared = (text: string, request: UpgradeRequest, sections: RegExp, operators: RegExp): string | null => {
  const target = normalizePackageName(request.ecosystem, request.package);
  const lines = text.split('\n');
  let inSection = false;
  let changed = false;
  lines.forEach((line, index) => {
    const header = /^\s*\[([^\]]+)\]\s*(?:#.*)?$/.exec(line);
    if (header?.[1]) {
      inSection = sections.test(header[1].trim());
      return;
    }
    if (!inSection) return;
    const entry = /^(\s*"?)([A-Za-z0-9._-]+)("?\s*=\s*)(.*)$/.exec(line);
    if (!entry?.[2] || normalizePackageName(request.ecosystem, entry[2]) !== target) return;
    const value = entry[4] ?? '';
    const constraint = /^(\{[^}]*?\bversion\s*=\s*|)(["'])([^"']*)\2/.exec(value);
    if (!constraint) return;
    const versionMatch = operators.exec(constraint[3] ?? '');
    if (!versionMatch?.[2] || (compareVersions(request.ecosystem, versionMatch[2], request.fixed_version) ?? 0) >= 0) return;
    const quote = constraint[2] ?? '"';
    const bumped = `${constraint[1] ?? ''}${quote}${versionMatch[1] ?? ''}${request.fixed_version}${quote}`;
    lines[index] = `${entry[1]}${entry[2]}${entry[3]}${bumped}${value.slice(constraint[0].length)}`;
    changed = true;
  });
  return changed ? lines.join('\n') : null;
};

const planPoetry = async (root: string, request: UpgradeRequest, text: string): Promise<UpgradePlan | null> => {
  const tables = lockTables(text, request);
  if (tables.length === 0) return null;
  let lines = text.split('\n');
  // From the last table up, so that earlier line numbers stay right.
  for (const table of [...tables].reverse()) {
    const version = table.fields.get('version');
    if (!version) continue;
    replaceLine(lines, version.line, (line) => tomlVersionValue(line, request.fixed_version));
    lines = emptyArray(lines, table.line, /^\s*files\s*=\s*\[/);
  }
  // Lockfiles of Poetry before 1.2 keep the hashes apart, under [metadata.files].
  const metadataFiles = lines.findIndex((line) => /^\s*\[metadata\.files\]\s*$/.test(line));
  if (metadataFiles >= 0) {
    const name = normalizePackageName('PyPI', request.package);
    const spellings = [...new Set([request.package, name, name.replace(/-/g, '_')])].map(escapeRegExp).join('|');
    lines = emptyArray(lines, metadataFiles + 1, new RegExp(`^\\s*"?(?:${spellings})"?\\s*=\\s*\\[`, 'i'));
  }
  const files: FileChange[] = [{ path: request.lockfile, content: lines.join('\n') }];
  const notes = [
    `${request.lockfile}: ${request.package} ${request.installed_version} → ${request.fixed_version}; its file hashes were removed: run \`poetry lock --no-update\` to record the new ones.`,
  ];
  const manifestPath = siblingPath(request.lockfile, 'pyproject.toml');
  const manifest = await readRepositoryFile(root, manifestPath);
  const bumped =
    manifest === null
      ? null
      : bumpTomlDeclared(manifest, request, /^tool\.poetry(?:\.group\.[^.]+)?\.(?:dev-)?dependencies$/, /^(\^|~=|~|==|>=)?\s*(\d[^,\s]*)$/);
  if (bumped !== null) {
    files.push({ path: manifestPath, content: bumped });
    notes.push(`${manifestPath} changed: poetry.lock's content-hash is stale until \`poetry lock --no-update\`.`);
  }
  return { files, notes };
};

// ---------------------------------------------------------------- crates.io

const planCargo = async (root: string, request: UpgradeRequest, text: string): Promise<UpgradePlan | null> => {
  const tables = lockTables(text, request);
  if (tables.length === 0) return null;
  const lines = text.split('\n');
  const removed = new Set<number>();
  for (const table of tables) {
    const version = table.fields.get('version');
    if (version) replaceLine(lines, version.line, (line) => tomlVersionValue(line, request.fixed_version));
    const checksum = table.fields.get('checksum');
    if (checksum) removed.add(checksum.line);
  }
  // Dependents name the package as "name version" when several versions are locked.
  const reference = new RegExp(
    `^(\\s*")${escapeRegExp(request.package)} ${escapeRegExp(request.installed_version)}((?: \\([^)]*\\))?",?\\s*)$`,
  );
  const patched = lines
    .map((line) => line.replace(reference, `$1${request.package} ${request.fixed_version}$2`))
    .filter((_, index) => !removed.has(index + 1));
  const files: FileChange[] = [{ path: request.lockfile, content: patched.join('\n') }];
  const notes = [
    `${request.lockfile}: ${request.package} ${request.installed_version} → ${request.fixed_version}; its checksum was removed: run \`cargo update -p ${request.package} --precise ${request.fixed_version}\` to record the new one.`,
  ];
  const manifestPath = siblingPath(request.lockfile, 'Cargo.toml');
  const manifest = await readRepositoryFile(root, manifestPath);
  const bumped =
    manifest === null
      ? null
      : bumpTomlDeclared(
          manifest,
          request,
          /^(?:workspace\.)?(?:target\.[^\]]+\.)?(?:dev-|build-)?dependencies$/,
          /^(\^|~|=|>=)?\s*(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?)$/,
        );
  if (bumped !== null) files.push({ path: manifestPath, content: bumped });
  return { files, notes };
};

// ---------------------------------------------------------------- Go

const planGo = async (root: string, request: UpgradeRequest, text: string): Promise<UpgradePlan | null> => {
  const module = request.package;
  const installed = request.installed_version;
  const fixed = request.fixed_version.startsWith('v') ? request.fixed_version : `v${request.fixed_version}`;
  const sumLine = new RegExp(`^\\s*${escapeRegExp(module)}\\s+${escapeRegExp(installed)}(?:/go\\.mod)?\\s`);
  const lines = text.split('\n');
  const kept = lines.filter((line) => !sumLine.test(line));
  if (kept.length === lines.length) return null;
  const files: FileChange[] = [{ path: request.lockfile, content: kept.join('\n') }];
  const notes = [
    `${request.lockfile}: the lines of ${module} ${installed} were removed (hashes cannot be computed here): run \`go mod tidy\` to record ${fixed}'s.`,
  ];
  const manifestPath = siblingPath(request.lockfile, 'go.mod');
  const manifest = await readRepositoryFile(root, manifestPath);
  if (manifest === null) {
    notes.push(`${manifestPath} is missing: the module version is not pinned anywhere else.`);
    return { files, notes };
  }
  // `require module v1` on its own, or `module v1` inside a `require ( … )` block.
  const modLines = linesOf(manifest);
  let inRequire = false;
  let found = false;
  const patched = modLines.map((line) => {
    if (/^\s*require\s*\(\s*$/.test(line)) inRequire = true;
    else if (inRequire && /^\s*\)\s*$/.test(line)) inRequire = false;
    const pattern = new RegExp(`^(\\s*${inRequire ? '' : 'require\\s+'})(${escapeRegExp(module)})(\\s+)(v\\S+)`);
    const match = pattern.exec(line);
    if (!match?.[4]) return line;
    found = true;
    if ((compareVersions('Go', match[4], fixed) ?? 0) >= 0) return line;
    return `${match[1] ?? ''}${match[2]}${match[3] ?? ''}${fixed}${line.slice(match[0].length)}`;
  });
  if (!found) {
    while (patched.length > 0 && patched[patched.length - 1]?.trim() === '') patched.pop();
    patched.push('', `require ${module} ${fixed} // indirect`, '');
  }
  const content = patched.join(manifest.includes('\r\n') ? '\r\n' : '\n');
  if (content !== manifest) files.push({ path: manifestPath, content });
  return { files, notes };
};

// ----------------------------------------------------------------

const planners: Partial<
  Record<LockfileKind, (root: string, request: UpgradeRequest, text: string) => Promise<UpgradePlan | null> | UpgradePlan | null>
> = {
  'package-lock.json': planNpm,
  'npm-shrinkwrap.json': planNpm,
  'requirements.txt': (_root, request, text) => planRequirements(request, text),
  'poetry.lock': planPoetry,
  'Cargo.lock': planCargo,
  'go.sum': planGo,
};

/** The upgrade plan with its notes, or null when no mechanical upgrade can be planned. */
export const planUpgradeWithNotes = async (root: string, details: Record<string, unknown>): Promise<UpgradePlan | null> => {
  const request = upgradeRequestOf(details);
  if (!request) return null;
  const kind = lockfileKindOf(request.lockfile);
  const planner = kind ? planners[kind] : undefined;
  if (!kind || !planner || lockfileEcosystem[kind] !== request.ecosystem) return null;
  const text = await readRepositoryFile(root, request.lockfile);
  if (text === null) return null;
  const plan = await planner(root, request, text);
  return plan && plan.files.length > 0 ? plan : null;
};

/** Full new contents of the files the upgrade changes, or null (see `planUpgradeWithNotes`). */
export const planUpgrade = async (root: string, details: Record<string, unknown>): Promise<FileChange[] | null> =>
  (await planUpgradeWithNotes(root, details))?.files ?? null;
