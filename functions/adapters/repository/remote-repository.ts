import type { AuthCallback, HttpClient } from 'isomorphic-git';
import { fs, git, gitErrorCode, requireCommit, type GitCache } from './git-client';
import { classifyNetworkError } from '../http/webhook-http-client';
import {
  BranchExists,
  RepositoryRefNotFound,
  RepositoryUnavailable,
  RepositoryUnreachable,
  type UnreachableReason,
} from './repository-errors';

/** A token for https: sent as the password, never logged. `username` defaults to GitHub's `x-access-token`. */
export interface RepositoryCredentials {
  token: string;
  username?: string;
}

export interface Remote {
  url: string;
  http: HttpClient;
  credentials?: RepositoryCredentials;
}

export const onAuthFor = (credentials: RepositoryCredentials | undefined): AuthCallback | undefined =>
  credentials ? () => ({ username: credentials.username ?? 'x-access-token', password: credentials.token }) : undefined;

/** What went wrong, as a class: never a URL, an address, a header, a token or a socket's message. */
const reasonOf = (error: unknown): UnreachableReason => {
  const code = gitErrorCode(error);
  if (code === 'HttpError') {
    const status = (error as { data?: { statusCode?: number } }).data?.statusCode ?? 0;
    if (status === 401 || status === 403) return 'access_denied';
    if (status === 404) return 'not_found';
    if (status >= 300 && status < 400) return 'redirected';
    return 'http_status';
  }
  if (code === 'UserCanceledError') return 'access_denied';
  if (code === 'SmartHttpError' || code === 'ParseError') return 'not_a_git_repository';
  return classifyNetworkError(error);
};

export const unavailable = (error: unknown): RepositoryUnavailable =>
  error instanceof RepositoryUnavailable || error instanceof RepositoryRefNotFound
    ? error
    : new RepositoryUnreachable(reasonOf(error), { cause: error });

export interface RemoteBranches {
  /** Branch name (without refs/heads/) → tip commit. */
  tips: Map<string, string>;
  /** The branch HEAD points at, when the server says. */
  defaultBranch: string | undefined;
}

export const listBranches = async (remote: Remote): Promise<RemoteBranches> => {
  try {
    const refs = await git.listServerRefs({
      http: remote.http,
      url: remote.url,
      onAuth: onAuthFor(remote.credentials),
      symrefs: true,
    });
    const tips = new Map<string, string>();
    let defaultBranch: string | undefined;
    for (const { ref, oid, target } of refs) {
      if (ref.startsWith('refs/heads/')) tips.set(ref.slice('refs/heads/'.length), oid);
      if (ref === 'HEAD' && target?.startsWith('refs/heads/')) defaultBranch = target.slice('refs/heads/'.length);
    }
    return { tips, defaultBranch };
  } catch (error) {
    throw unavailable(error);
  }
};

/**
 * Brings one commit (depth 1) into a new repository at `gitdir`. By branch name when the branch
 * is at that commit; else by commit id, which the server must allow (GitHub and GitLab do).
 */
export const fetchCommit = async (
  remote: Remote,
  gitdir: string,
  wanted: { commit: string; branch: string | undefined },
  cache: GitCache,
): Promise<void> => {
  try {
    await git.init({ fs, gitdir, bare: true });
    await git.addRemote({ fs, gitdir, remote: 'origin', url: remote.url });
    await git.fetch({
      fs,
      cache,
      http: remote.http,
      gitdir,
      remote: 'origin',
      // The full name, so that a tag of the same name is not taken instead.
      ref: wanted.branch ? `refs/heads/${wanted.branch}` : wanted.commit,
      singleBranch: true,
      depth: 1,
      tags: false,
      onAuth: onAuthFor(remote.credentials),
    });
    if (wanted.branch) {
      // On push, isomorphic-git leaves out every object reachable from the remote's HEAD as it
      // knows it: pointing that at the fetched branch sends only what the change adds.
      await git.writeRef({
        fs,
        gitdir,
        ref: 'refs/remotes/origin/HEAD',
        value: `refs/remotes/origin/${wanted.branch}`,
        symbolic: true,
        force: true,
      });
    }
  } catch (error) {
    throw unavailable(error);
  }
  await requireCommit(gitdir, wanted.commit, cache);
};

/**
 * Publishes the local `refs/heads/<branch>` as a new remote branch. BranchExists when the branch
 * appeared on the server meanwhile; RepositoryUnavailable when the server refused it otherwise.
 */
export const pushNewBranch = async (remote: Remote, gitdir: string, branch: string, cache: GitCache): Promise<void> => {
  try {
    await git.push({
      fs,
      cache,
      http: remote.http,
      gitdir,
      remote: 'origin',
      ref: `refs/heads/${branch}`,
      remoteRef: `refs/heads/${branch}`,
      onAuth: onAuthFor(remote.credentials),
    });
  } catch (error) {
    const code = gitErrorCode(error);
    if (code === 'PushRejectedError') throw new BranchExists(branch);
    if (code === 'GitPushError') {
      throw new RepositoryUnavailable(`the server refused branch ${branch}: ${(error as Error).message}`, { cause: error });
    }
    throw unavailable(error);
  }
};
