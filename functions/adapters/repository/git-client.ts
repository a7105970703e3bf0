import fs from 'node:fs';
import git from 'isomorphic-git';
import { RepositoryRefNotFound } from './repository-errors';

export { git, fs };

/** Isomorphic-git's errors carry their kind in `code` (NotFoundError, HttpError, ...). */
export const gitErrorCode = (error: unknown): string | undefined => {
  // No `instanceof Error`: errors from node's own modules may come from another realm (jest's vm).
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
};

/** The object cache isomorphic-git shares between calls on one repository (packfile indexes). */
export type GitCache = Record<string, unknown>;

/**
 * The commit `oid` names in the repository at `gitdir`: itself, or the commit an annotated tag's
 * object id points to (as git takes a tag wherever it wants a commit); else the caller's ref names
 * nothing there.
 */
export const requireCommit = async (gitdir: string, oid: string, cache: GitCache): Promise<string> => {
  try {
    return (await git.readCommit({ fs, gitdir, oid, cache })).oid;
  } catch {
    throw new RepositoryRefNotFound(`commit ${oid} was not found in the repository`);
  }
};
