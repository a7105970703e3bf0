import { join } from 'node:path';
import type { HttpClient } from 'isomorphic-git';
import type { ChangedFile, ChangeRead, ReadChangeRequest } from '../../core/reviews/change-source';
import { lineSimilarity } from '../../core/reviews/diff-files';
import { assertBranchName } from './branch-name';
import { fs, git, gitErrorCode, requireCommit, type GitCache } from './git-client';
import { locateGitdir } from './local-repository';
import { listBranches, onAuthFor, unavailable, type Remote, type RepositoryCredentials } from './remote-repository';
import { parseRepositoryAddress } from './repository-address';
import { guardedGitHttp } from './guarded-git-http';
import { fileRepositoriesDisabled, RepositoryRefNotFound, RepositoryUnavailable } from './repository-errors';
import { publicOnly } from './repository-target';
import { writeTreeAt } from './tree-writer';

const fullCommitId = /^[0-9a-f]{40}$/;

/** Blobs larger than this are not read into memory as text (the review's own limit is lower). */
export const maxReadBytes = 4 * 1024 * 1024;

/** Renamed-and-edited files are paired, as git does, when at least half their lines are the same (in any order). */
const renameSimilarity = 0.5;
/** Pairing compares every deleted file with every added one: only for changes this small. */
const maxRenameCandidates = 40;
const maxRenameBytes = 256 * 1024;

/** From the merge base (or, while fetching, the shallow history) this many commits deep at first, four times deeper each round. */
const firstDepth = 50;
const maxDepth = 10_000;

export class NoCommonHistory extends Error {
  override readonly name = 'NoCommonHistory';
}

interface Side {
  ref: string;
  oid: string;
}

interface Entry {
  oid: string;
  mode: number;
  type: 'blob' | 'tree' | 'commit' | 'special';
}

const isRegularFile = (entry: Entry): boolean => entry.type === 'blob' && (entry.mode & 0o170000) === 0o100000;

const decoder = new TextDecoder('utf-8', { fatal: true });

type Content = { kind: 'text'; text: string } | { kind: 'binary' | 'too_large' | 'not_a_file' };

const contentOf = async (gitdir: string, cache: GitCache, entry: Entry): Promise<Content> => {
  if (!isRegularFile(entry)) return { kind: 'not_a_file' };
  const { blob } = await git.readBlob({ fs, gitdir, oid: entry.oid, cache });
  if (blob.byteLength > maxReadBytes) return { kind: 'too_large' };
  // As git decides: a NUL byte in the first 8000 bytes means binary; so does text that is not UTF-8.
  if (blob.subarray(0, 8000).includes(0)) return { kind: 'binary' };
  try {
    return { kind: 'text', text: decoder.decode(blob).replace(/^\uFEFF/, '') };
  } catch {
    return { kind: 'binary' };
  }
};

interface RawChange {
  path: string;
  before: Entry | null;
  after: Entry | null;
}

/** Every path whose entry differs between two commits, skipping subtrees that are the same on both sides. */
const changedPaths = async (gitdir: string, cache: GitCache, base: string, head: string): Promise<RawChange[]> => {
  const changes: RawChange[] = [];
  await git.walk({
    fs,
    gitdir,
    cache,
    trees: [git.TREE({ ref: base }), git.TREE({ ref: head })],
    map: async (path, [a, b]) => {
      const entryOf = async (side: typeof a): Promise<Entry | null> =>
        side ? { oid: await side.oid(), mode: await side.mode(), type: await side.type() } : null;
      const [before, after] = await Promise.all([entryOf(a), entryOf(b)]);
      if (path === '.') return true;
      if (before?.type === 'tree' && after?.type === 'tree') return before.oid === after.oid ? null : true;
      if (before && after && before.oid === after.oid && before.mode === after.mode) return undefined;
      // A file that became a folder (or back) is a deletion plus additions below it.
      if (before?.type === 'tree') {
        if (after) changes.push({ path, before: null, after });
        return true;
      }
      if (after?.type === 'tree') {
        if (before) changes.push({ path, before, after: null });
        return true;
      }
      changes.push({ path, before, after });
      return undefined;
    },
  });
  return changes;
};

/** The files of the change, renames paired (exact first, then by similarity), in path order. */
const changedFiles = async (gitdir: string, cache: GitCache, base: string, head: string): Promise<ChangedFile[]> => {
  const raw = await changedPaths(gitdir, cache, base, head);
  const files: ChangedFile[] = [];
  const deleted: Array<{ path: string; entry: Entry; content: Content }> = [];
  const added: Array<{ path: string; entry: Entry; content: Content }> = [];
  for (const change of raw) {
    const before = change.before ? await contentOf(gitdir, cache, change.before) : null;
    const after = change.after ? await contentOf(gitdir, cache, change.after) : null;
    if (change.before && !change.after && before) deleted.push({ path: change.path, entry: change.before, content: before });
    else if (!change.before && change.after && after) added.push({ path: change.path, entry: change.after, content: after });
    else if (before && after) {
      const text = before.kind === 'text' && after.kind === 'text';
      files.push({
        path: change.path,
        previous_path: null,
        change: 'modified',
        kind: text ? 'text' : after.kind === 'text' ? before.kind : after.kind,
        before: text && before.kind === 'text' ? before.text : null,
        after: text && after.kind === 'text' ? after.text : null,
      });
    }
  }
  const paired = new Set<string>();
  const rename = (from: (typeof deleted)[number], to: (typeof added)[number]) => {
    paired.add(`-${from.path}`).add(`+${to.path}`);
    const text = from.content.kind === 'text' && to.content.kind === 'text';
    files.push({
      path: to.path,
      previous_path: from.path,
      change: 'renamed',
      kind: text ? 'text' : to.content.kind === 'text' ? from.content.kind : to.content.kind,
      before: text && from.content.kind === 'text' ? from.content.text : null,
      after: text && to.content.kind === 'text' ? to.content.text : null,
    });
  };
  for (const to of added) {
    const from = deleted.find((candidate) => !paired.has(`-${candidate.path}`) && candidate.entry.oid === to.entry.oid);
    if (from) rename(from, to);
  }
  const openDeleted = deleted.filter((file) => !paired.has(`-${file.path}`) && file.content.kind === 'text');
  const openAdded = added.filter((file) => !paired.has(`+${file.path}`) && file.content.kind === 'text');
  if (openDeleted.length <= maxRenameCandidates && openAdded.length <= maxRenameCandidates) {
    const textOf = (file: (typeof deleted)[number]) => (file.content.kind === 'text' ? file.content.text : '');
    for (const to of openAdded) {
      if (textOf(to).length > maxRenameBytes) continue;
      let best: { file: (typeof deleted)[number]; score: number } | undefined;
      for (const from of openDeleted) {
        if (paired.has(`-${from.path}`) || textOf(from).length > maxRenameBytes) continue;
        const score = lineSimilarity(textOf(from), textOf(to));
        if (score >= renameSimilarity && (!best || score > best.score)) best = { file: from, score };
      }
      if (best) rename(best.file, to);
    }
  }
  for (const from of deleted.filter((file) => !paired.has(`-${file.path}`))) {
    files.push({
      path: from.path,
      previous_path: null,
      change: 'deleted',
      kind: from.content.kind,
      before: from.content.kind === 'text' ? from.content.text : null,
      after: null,
    });
  }
  for (const to of added.filter((file) => !paired.has(`+${file.path}`))) {
    files.push({
      path: to.path,
      previous_path: null,
      change: 'added',
      kind: to.content.kind,
      before: null,
      after: to.content.kind === 'text' ? to.content.text : null,
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
};

const mergeBaseOf = async (gitdir: string, cache: GitCache, base: string, head: string): Promise<string | undefined> => {
  const bases = (await git.findMergeBase({ fs, gitdir, cache, oids: [base, head] })) as string[];
  return bases[0];
};

const noCommonHistory = (base: Side, head: Side) =>
  new NoCommonHistory(`${base.ref} and ${head.ref} share no history: there is no merge base to review the change from`);

const readLocalSide = async (gitdir: string, cache: GitCache, name: string): Promise<Side> => {
  if (fullCommitId.test(name)) return { ref: name, oid: await requireCommit(gitdir, name, cache) };
  assertBranchName(name);
  try {
    return { ref: name, oid: await git.resolveRef({ fs, gitdir, ref: `refs/heads/${name}` }) };
  } catch (error) {
    if (gitErrorCode(error) === 'NotFoundError') throw new RepositoryRefNotFound(`branch ${name} was not found in the repository`);
    throw new RepositoryUnavailable(`the repository cannot be read: ${gitErrorCode(error) ?? 'unknown error'}`, { cause: error });
  }
};

const remoteSide = (tips: Map<string, string>, name: string): Side => {
  if (fullCommitId.test(name)) return { ref: name, oid: name };
  assertBranchName(name);
  const oid = tips.get(name);
  if (!oid) throw new RepositoryRefNotFound(`branch ${name} was not found in the repository`);
  return { ref: name, oid };
};

/**
 * Fetches both sides, deeper each round, until their merge base is there (or `maxDepth`); the merge
 * base and the commit of each side (a side named by an annotated tag's id is its commit).
 */
const fetchUntilMergeBase = async (
  remote: Remote,
  gitdir: string,
  cache: GitCache,
  base: Side,
  head: Side,
): Promise<{ mergeBase: string; baseCommit: string; headCommit: string }> => {
  try {
    await git.init({ fs, gitdir, bare: true });
    await git.addRemote({ fs, gitdir, remote: 'origin', url: remote.url });
  } catch (error) {
    throw unavailable(error);
  }
  const commits = new Map<Side, string>();
  const fetchSide = async (side: Side, depth: number): Promise<void> => {
    try {
      await git.fetch({
        fs,
        cache,
        http: remote.http,
        gitdir,
        remote: 'origin',
        // The full name, so that a tag of the same name is not taken instead; a commit by its id.
        ref: side.ref === side.oid ? side.oid : `refs/heads/${side.ref}`,
        singleBranch: true,
        depth,
        tags: false,
        onAuth: onAuthFor(remote.credentials),
      });
    } catch (error) {
      throw unavailable(error);
    }
    commits.set(side, await requireCommit(gitdir, side.oid, cache));
  };
  for (let depth = firstDepth; ; depth = Math.min(depth * 4, maxDepth)) {
    await fetchSide(head, depth);
    await fetchSide(base, depth);
    const [baseCommit, headCommit] = [commits.get(base) as string, commits.get(head) as string];
    const found = await mergeBaseOf(gitdir, cache, baseCommit, headCommit);
    if (found) return { mergeBase: found, baseCommit, headCommit };
    if (depth >= maxDepth) throw new NoCommonHistory(`${base.ref} and ${head.ref} share no history within ${maxDepth} commits`);
  }
};

export interface ChangeReaderOptions {
  /** isomorphic-git's HTTP client. Default: the guarded client with public addresses only. */
  http?: HttpClient;
  /** Whether `file:///` repositories (a folder on this machine) may be read: only the local runtime turns this on. */
  fileRepositories?: boolean;
}

/**
 * Reads what a pull request from head into base shows: the files that differ between their merge
 * base and head (isomorphic-git, no git binary), and writes head's files into the folder. `file:`
 * repositories are read in place; `https:` ones fetched shallow, then deeper until the merge base
 * is in reach.
 */
export const gitChangeReader = (options: ChangeReaderOptions = {}) => ({
  async read(request: ReadChangeRequest & { credentials?: RepositoryCredentials }): Promise<ChangeRead> {
    const address = parseRepositoryAddress(request.url);
    if (address.kind === 'file' && !options.fileRepositories) throw fileRepositoriesDisabled();
    const cache: GitCache = {};
    let gitdir: string;
    let base: Side;
    let head: Side;
    let mergeBase: string | undefined;
    if (address.kind === 'file') {
      gitdir = await locateGitdir(address.path);
      const baseName = request.base ?? (await git.currentBranch({ fs, gitdir }));
      if (!baseName) throw new RepositoryRefNotFound('the repository has no default branch (its HEAD is detached)');
      base = await readLocalSide(gitdir, cache, baseName);
      head = await readLocalSide(gitdir, cache, request.head);
      mergeBase = await mergeBaseOf(gitdir, cache, base.oid, head.oid);
      if (!mergeBase) throw noCommonHistory(base, head);
    } else {
      const remote: Remote = {
        url: address.url,
        http: options.http ?? guardedGitHttp({ policy: publicOnly }),
        ...(request.credentials ? { credentials: request.credentials } : {}),
      };
      const { tips, defaultBranch } = await listBranches(remote);
      const baseName = request.base ?? defaultBranch;
      if (!baseName) throw new RepositoryRefNotFound('the repository has no default branch');
      base = remoteSide(tips, baseName);
      head = remoteSide(tips, request.head);
      gitdir = join(request.dir, '.git');
      const fetched = await fetchUntilMergeBase(remote, gitdir, cache, base, head);
      mergeBase = fetched.mergeBase;
      base = { ...base, oid: fetched.baseCommit };
      head = { ...head, oid: fetched.headCommit };
    }
    const files = await changedFiles(gitdir, cache, mergeBase, head.oid);
    await writeTreeAt(gitdir, head.oid, request.dir, cache);
    return { base_ref: base.ref, merge_base: mergeBase, head_commit: head.oid, files };
  },
});
