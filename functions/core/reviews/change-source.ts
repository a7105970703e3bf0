import type { FileChangeKind } from './review';

/**
 * One file of a change, both sides. `text` files carry their UTF-8 contents (null on the side
 * where the file does not exist); `binary`, `too_large` and `not_a_file` (a symbolic link or a
 * submodule) carry none.
 */
export interface ChangedFile {
  /** The head-side path (the base-side one for a deleted file). */
  path: string;
  /** The base-side path of a renamed file. */
  previous_path: string | null;
  change: FileChangeKind;
  kind: 'text' | 'binary' | 'too_large' | 'not_a_file';
  before: string | null;
  after: string | null;
}

export interface ReadChangeRequest {
  url: string;
  /** Branch or full commit id; the repository's default branch when absent. */
  base?: string;
  /** Branch or full commit id. */
  head: string;
  /** An empty folder: the head commit's files are written there (for the type check and the scanners). */
  dir: string;
}

export interface ChangeRead {
  /** What `base` resolved to: the branch name (the default branch when none was asked) or the commit id. */
  base_ref: string;
  /** The merge base of base and head: what a pull request from head into base would show a diff from. */
  merge_base: string;
  head_commit: string;
  /** Every file that differs between the merge base and head, in path order. */
  files: ChangedFile[];
}

/** Reads the change a pull request from `head` into `base` would show. */
export interface ChangeReader {
  read(request: ReadChangeRequest): Promise<ChangeRead>;
}
