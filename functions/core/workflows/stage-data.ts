/**
 * What the stages of a workflow hand to each other (through the artifact store) and to the AI
 * provider. Plain data, no AWS: the same shapes in AWS and locally.
 */

export const stageNames = ['intake', 'build', 'verify', 'prove', 'iterate', 'package'] as const;
export type StageName = (typeof stageNames)[number];

/** What intake learns about the repository: enough for the AI to plan without the whole tree. */
export interface RepositoryContext {
  /** The repository address as stored on the project. */
  repository: string;
  branch: string;
  /** Full 40-hex commit id that was checked out. */
  commit: string;
  /** Every tracked file (path relative to the root, `/`-separated) with its size in bytes; capped. */
  files: Array<{ path: string; size: number }>;
  /** True when `files` was cut at its cap. */
  filesTruncated: boolean;
  /** Contents of recognised manifests (package.json, pyproject.toml, go.mod, Cargo.toml, ...), each capped. */
  manifests: Record<string, string>;
  /** The README's text (capped), or null. */
  readme: string | null;
  /** Languages seen, by file extension, most files first. */
  languages: string[];
}

export interface Plan {
  summary: string;
  steps: string[];
  /** Paths the change is expected to touch (a hint, not a limit). */
  files: string[];
}

/** One file of a change: full new content, or null to delete the file. */
export interface FileChange {
  path: string;
  content: string | null;
}

export interface ChangeSet {
  summary: string;
  files: FileChange[];
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface VerificationProblem {
  check: string;
  path: string;
  line: number | null;
  message: string;
}

export interface VerificationReport {
  passed: boolean;
  /** One entry per check run (or skipped, with why), e.g. { name: 'syntax', path: 'src/a.ts', status: 'passed' }. */
  checks: Array<{ name: string; path: string; status: CheckStatus; message?: string }>;
  problems: VerificationProblem[];
}

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}
