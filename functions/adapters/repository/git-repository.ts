import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpClient } from 'isomorphic-git';
import type { ChangeSet } from '../../core/workflows/stage-data';
import { assertValidChangeSet } from '../../core/workspace/validate-change-set';
import { assertBranchName } from './branch-name';
import { commitChanges } from './commit-changes';
import { fs, git, gitErrorCode, type GitCache } from './git-client';
import { locateGitdir } from './local-repository';
import { fetchCommit, listBranches, pushNewBranch, type Remote, type RepositoryCredentials } from './remote-repository';
import { parseRepositoryAddress } from './repository-address';
import { guardedGitHttp } from './guarded-git-http';
import { BranchExists, fileRepositoriesDisabled, RepositoryRefNotFound, RepositoryUnavailable } from './repository-errors';
import { publicOnly } from './repository-target';
import { writeTreeAt } from './tree-writer';

export type { RepositoryCredentials } from './remote-repository';

export interface CheckoutRequest {
  url: string;
  /** Default: the repository's default branch (its HEAD). */
  branch?: string;
  /** Check out this commit instead of the branch's tip (e.g. the one an earlier stage saw). */
  commit?: string;
  /** Where the files go; must be empty or absent. */
  dir: string;
  credentials?: RepositoryCredentials;
}

export interface PushBranchRequest {
  url: string;
  baseCommit: string;
  /** The new branch; an existing one is never overwritten. */
  branch: string;
  changes: ChangeSet;
  message: string;
  author: { name: string; email: string };
  credentials?: RepositoryCredentials;
  /** https only: an empty folder to build the commit in; by default a temporary one, removed afterwards. */
  dir?: string;
}

export interface GitRepositoryOptions {
  /** isomorphic-git's HTTP client. Default: the guarded client with public addresses only. */
  http?: HttpClient;
  /**
   * Whether `file:///` repositories (a folder on this machine) may be read and written. Only the
   * local runtime turns this on: anywhere else a caller would read the server's disk.
   */
  fileRepositories?: boolean;
  /** The commit's author and committer date. */
  now?: () => Date;
}

const fullCommitId = /^[0-9a-f]{40}$/;

const assertCommitId = (commit: string): void => {
  if (!fullCommitId.test(commit)) throw new RepositoryRefNotFound(`${JSON.stringify(commit.slice(0, 80))} is not a full commit id`);
};

const assertEmptyFolder = async (dir: string): Promise<void> => {
  // isomorphic-git would otherwise mix its files with what is there.
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) throw new Error(`checkout folder ${dir} is not empty`);
};

const resolveLocalBranch = async (gitdir: string, branch: string | undefined): Promise<{ branch: string; tip: string }> => {
  const name = branch ?? (await git.currentBranch({ fs, gitdir }));
  if (!name) throw new RepositoryRefNotFound('the repository has no default branch (its HEAD is detached)');
  try {
    return { branch: name, tip: await git.resolveRef({ fs, gitdir, ref: `refs/heads/${name}` }) };
  } catch (error) {
    if (gitErrorCode(error) === 'NotFoundError') throw new RepositoryRefNotFound(`branch ${name} was not found in the repository`);
    throw new RepositoryUnavailable(`the repository cannot be read: ${gitErrorCode(error) ?? 'unknown error'}`, { cause: error });
  }
};

const assertLocalCommit = async (gitdir: string, commit: string, cache: GitCache): Promise<void> => {
  try {
    await git.readCommit({ fs, gitdir, oid: commit, cache });
  } catch {
    throw new RepositoryRefNotFound(`commit ${commit} was not found in the repository`);
  }
};

export const gitRepository = (options: GitRepositoryOptions = {}) => {
  const http = options.http ?? guardedGitHttp({ policy: publicOnly });
  const now = options.now ?? (() => new Date());
  const addressOf = (url: string) => {
    const address = parseRepositoryAddress(url);
    if (address.kind === 'file' && !options.fileRepositories) throw fileRepositoriesDisabled();
    return address;
  };

  /** Fetches a branch (or one of its commits) and writes its files into `dir`. */
  const checkout = async (request: CheckoutRequest): Promise<{ commit: string; branch: string }> => {
    const address = addressOf(request.url);
    if (request.branch !== undefined) assertBranchName(request.branch);
    if (request.commit !== undefined) assertCommitId(request.commit);
    await assertEmptyFolder(request.dir);
    const cache: GitCache = {};

    if (address.kind === 'file') {
      const gitdir = await locateGitdir(address.path);
      const { branch, tip } = await resolveLocalBranch(gitdir, request.branch);
      const commit = request.commit ?? tip;
      await assertLocalCommit(gitdir, commit, cache);
      await writeTreeAt(gitdir, commit, request.dir, cache);
      return { commit, branch };
    }

    const remote: Remote = { url: address.url, http, ...(request.credentials ? { credentials: request.credentials } : {}) };
    const { tips, defaultBranch } = await listBranches(remote);
    const branch = request.branch ?? defaultBranch;
    if (!branch) throw new RepositoryRefNotFound('the repository has no default branch');
    const tip = tips.get(branch);
    if (!tip) throw new RepositoryRefNotFound(`branch ${branch} was not found in the repository`);
    const commit = request.commit ?? tip;
    const gitdir = join(request.dir, '.git');
    await fetchCommit(remote, gitdir, { commit, branch: commit === tip ? branch : undefined }, cache);
    await writeTreeAt(gitdir, commit, request.dir, cache);
    return { commit, branch };
  };

  const commitOnBase = async (gitdir: string, request: PushBranchRequest, cache: GitCache): Promise<string> =>
    commitChanges({
      gitdir,
      baseCommit: request.baseCommit,
      changes: request.changes.files,
      message: request.message,
      author: request.author,
      date: now(),
      cache,
    });

  /** Commits the change on top of `baseCommit` and publishes it as a new branch. */
  const pushBranch = async (request: PushBranchRequest): Promise<{ branch: string; commit: string }> => {
    const address = addressOf(request.url);
    assertBranchName(request.branch);
    assertCommitId(request.baseCommit);
    assertValidChangeSet(request.changes.files);
    const cache: GitCache = {};
    const ref = `refs/heads/${request.branch}`;

    if (address.kind === 'file') {
      // The local equivalent of a push: objects and ref are written into the source repository.
      const gitdir = await locateGitdir(address.path);
      if (
        await git.resolveRef({ fs, gitdir, ref }).then(
          () => true,
          () => false,
        )
      )
        throw new BranchExists(request.branch);
      await assertLocalCommit(gitdir, request.baseCommit, cache);
      const commit = await commitOnBase(gitdir, request, cache);
      try {
        await git.writeRef({ fs, gitdir, ref, value: commit, force: false });
      } catch (error) {
        if (gitErrorCode(error) === 'AlreadyExistsError') throw new BranchExists(request.branch);
        throw error;
      }
      return { branch: request.branch, commit };
    }

    const remote: Remote = { url: address.url, http, ...(request.credentials ? { credentials: request.credentials } : {}) };
    const { tips } = await listBranches(remote);
    if (tips.has(request.branch)) throw new BranchExists(request.branch);
    const baseBranch = [...tips].find(([, tip]) => tip === request.baseCommit)?.[0];
    if (request.dir) await assertEmptyFolder(request.dir);
    const dir = request.dir ?? (await mkdtemp(join(tmpdir(), 'push-')));
    try {
      const gitdir = join(dir, '.git');
      await fetchCommit(remote, gitdir, { commit: request.baseCommit, branch: baseBranch }, cache);
      const commit = await commitOnBase(gitdir, request, cache);
      await git.writeRef({ fs, gitdir, ref, value: commit, force: true });
      await pushNewBranch(remote, gitdir, request.branch, cache);
      return { branch: request.branch, commit };
    } finally {
      if (!request.dir) await rm(dir, { recursive: true, force: true });
    }
  };

  return { checkout, pushBranch };
};
