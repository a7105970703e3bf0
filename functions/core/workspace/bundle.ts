import { gunzipSync, gzipSync } from 'node:zlib';
import type { ChangeSet, FileChange } from '../workflows/stage-data';
import { repositoryPathProblem } from './repository-path';
import { readTar, type TarEntry, writeTar } from './tar-archive';
import { assertValidChangeSet } from './validate-change-set';

export const bundlePatchName = 'change.patch';
export const bundleChangesFolder = 'changes';

export interface BundleInput {
  changes: ChangeSet | readonly FileChange[];
  diff: string;
  /** More files at the top of the bundle, by name (e.g. `provenance.dsse.json`). */
  extra?: Readonly<Record<string, Buffer | string>>;
}

const filesOf = (changes: ChangeSet | readonly FileChange[]): readonly FileChange[] => ('files' in changes ? changes.files : changes);

const byName = (a: TarEntry, b: TarEntry): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const extraEntries = (extra: Readonly<Record<string, Buffer | string>>): TarEntry[] =>
  Object.entries(extra).map(([name, body]) => {
    const problem = repositoryPathProblem(name);
    if (problem) throw new Error(`Invalid bundle entry name ${JSON.stringify(name)}: ${problem}`);
    if (name === bundlePatchName || name === bundleChangesFolder || name.startsWith(`${bundleChangesFolder}/`)) {
      throw new Error(`Invalid bundle entry name ${JSON.stringify(name)}: reserved for the change itself`);
    }
    return { name, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body };
  });

/**
 * A gzip'd tar of the change: `changes/<path>` for every file written (deleted files appear only
 * in the patch), `change.patch`, and the extras. The same input gives the same bytes: entries
 * are sorted and carry no times or owners.
 */
export const createBundle = async ({ changes, diff, extra = {} }: BundleInput): Promise<Buffer> => {
  const files = filesOf(changes);
  assertValidChangeSet(files);
  const entries: TarEntry[] = [
    ...files.flatMap(({ path, content }) =>
      content === null ? [] : [{ name: `${bundleChangesFolder}/${path}`, body: Buffer.from(content, 'utf8') }],
    ),
    { name: bundlePatchName, body: Buffer.from(diff, 'utf8') },
    ...extraEntries(extra),
  ].sort(byName);
  const gzip = gzipSync(await writeTar(entries), { level: 9 });
  // The gzip header's OS byte is set by the platform zlib was built for; "unknown" makes the
  // bytes the same wherever the bundle is made.
  gzip[9] = 0xff;
  return gzip;
};

/** The files of a bundle, by name. */
export const readBundle = (bundle: Buffer): Promise<Map<string, Buffer>> => readTar(gunzipSync(bundle));
