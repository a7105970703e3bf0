import type { TestFramework, TestSource } from '../ai/provider';
import type { Framework } from './results';

/** What test generation reads from a checked-out tree, without running anything in it. */
export interface SourceInspector {
  /** The test framework the tree uses, from its files alone; null when none is recognised. */
  frameworkOf(dir: string): Promise<Framework | null>;
  /**
   * The source files the tests should cover (all of the tree, or the repository-relative `paths`
   * given), within size caps; throws when a path is not a file or folder inside the tree.
   */
  sourcesOf(dir: string, options: { paths?: string[] | undefined; framework: TestFramework }): Promise<{ files: TestSource[] }>;
}
