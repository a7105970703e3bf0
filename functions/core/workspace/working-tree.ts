import type { FileChange, RepositoryContext } from '../workflows/stage-data';

export interface AppliedChangeSet {
  /** What each changed path held before, as UTF-8 text; null when it did not exist. */
  originals: Record<string, string | null>;
}

/**
 * A repository checked out into a scratch folder, as the rules see it. Paths are
 * repository-relative and `/`-separated; an unsafe one (absolute, `..`, inside `.git`) is refused
 * with `UnsafePathError`.
 */
export interface WorkingTree {
  /** The folder itself, for what works on a whole tree: checkout, scanners, verification, test runners. */
  readonly dir: string;
  /** The file's UTF-8 text, or null when there is no such file; a link that leads out of the tree is refused. */
  readText(path: string): Promise<string | null>;
  /** Whether the path is a regular file (not a folder, not a link). */
  isFile(path: string): Promise<boolean>;
  /**
   * The text of the requested files, for the AI to edit. Invalid paths, absent, binary and too
   * large files, and links that lead out of the tree are silently left out.
   */
  readFiles(paths: readonly string[]): Promise<Record<string, string>>;
  /** What the AI needs to know about the tree to plan a change (files, manifests, README, languages). */
  describe(source: { repository: string; branch: string; commit: string }): Promise<RepositoryContext>;
  /** Writes and deletes the files of a change set; when any path is refused nothing is written (InvalidChangeSetError). */
  apply(changes: readonly FileChange[]): Promise<AppliedChangeSet>;
  /** Removes the folder. */
  dispose(): Promise<void>;
}

/** A scratch folder for one job's working tree, removed by `dispose`. */
export interface Scratch {
  create(): Promise<WorkingTree>;
}
