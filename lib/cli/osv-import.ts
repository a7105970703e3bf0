import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { osvRecordOf } from '../../functions/engines/scanners/dependencies/osv-record';

/** What one import did: records written per ecosystem (a record naming two counts in both), and what it skipped. */
export interface OsvImportReport {
  into: string;
  imported: number;
  ecosystems: Record<string, number>;
  skipped: number;
  /** Why each skipped entry was skipped (at most the first 20). */
  skippedExamples: string[];
}

export class OsvImportError extends Error {}

interface SourceFile {
  name: string;
  bytes: Uint8Array;
}

const maxSkippedExamples = 20;

/** Safe as one path segment on every file system: OSV ids and ecosystems (`Debian:12`, `crates.io`) keep their look. */
const segment = (text: string): string => text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');

const isJsonName = (name: string): boolean => name.toLowerCase().endsWith('.json') && !name.endsWith('/');

const filesOfZip = (zip: Uint8Array): SourceFile[] => {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, { filter: (file) => isJsonName(file.name) });
  } catch (error) {
    throw new OsvImportError(`not a readable zip archive: ${(error as Error).message}`);
  }
  return Object.entries(entries).map(([name, bytes]) => ({ name, bytes }));
};

const filesOfFolder = async (folder: string): Promise<SourceFile[]> => {
  const files: SourceFile[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !isJsonName(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    files.push({ name: path, bytes: await readFile(path) });
  }
  return files;
};

/**
 * Why a parsed JSON value is not an advisory the dependency scan can use, or null when it is:
 * an object with a string `id` and `modified` (both required by the OSV schema) and at least one
 * `affected` entry naming a package's `ecosystem` and `name`.
 */
const problemOf = (value: unknown): string | null => {
  const record = osvRecordOf(value);
  if (!record) return 'not an OSV record (no id)';
  if (!record.modified) return `${record.id}: no modified time`;
  if (!(record.affected ?? []).some((entry) => entry.package)) return `${record.id}: no affected package`;
  return null;
};

/**
 * Loads OSV's published data (the `all.zip` of an ecosystem from
 * osv-vulnerabilities.storage.googleapis.com, or a folder of such JSON files) into `into`, the
 * folder the local runtime's dependency scan reads (OSV_ADVISORY_DIR). Each valid record becomes
 * `<into>/<ecosystem>/<id>.json`, written whole before it is renamed into place, so a scan never
 * reads half a file and importing again replaces what was there.
 */
export const importOsvAdvisories = async (source: string, into: string): Promise<OsvImportReport> => {
  let info;
  try {
    info = await stat(source);
  } catch {
    throw new OsvImportError(`${source} does not exist`);
  }
  const files = info.isDirectory() ? await filesOfFolder(source) : filesOfZip(await readFile(source));
  if (files.length === 0) throw new OsvImportError(`${source} holds no .json files`);

  const report: OsvImportReport = { into, imported: 0, ecosystems: {}, skipped: 0, skippedExamples: [] };
  const skip = (reason: string) => {
    report.skipped += 1;
    if (report.skippedExamples.length < maxSkippedExamples) report.skippedExamples.push(reason);
  };
  for (const file of files) {
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.bytes));
    } catch {
      skip(`${file.name}: not JSON`);
      continue;
    }
    const problem = problemOf(value);
    if (problem) {
      skip(`${file.name}: ${problem}`);
      continue;
    }
    const record = osvRecordOf(value)!;
    const ecosystems = [...new Set((record.affected ?? []).flatMap((entry) => (entry.package ? [entry.package.ecosystem] : [])))];
    const folder = join(into, segment(ecosystems[0] as string));
    await mkdir(folder, { recursive: true });
    const target = join(folder, `${segment(record.id)}.json`);
    await writeFile(`${target}.partial`, file.bytes);
    await rename(`${target}.partial`, target);
    report.imported += 1;
    for (const ecosystem of ecosystems) report.ecosystems[ecosystem] = (report.ecosystems[ecosystem] ?? 0) + 1;
  }
  return report;
};
