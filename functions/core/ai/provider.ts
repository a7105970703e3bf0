import type { ChangeSet, Plan, RepositoryContext, TokenUsage, VerificationReport } from '../workflows/stage-data';

/**
 * What the service asks of an AI model. Each task has a typed answer; real providers render the
 * task into a prompt and parse the model's JSON reply, the `local` provider computes a fixed-form
 * answer from the task itself. Later capabilities (remediation, test generation) add task kinds.
 */
export type AiTask =
  | { kind: 'plan'; prompt: string; context: RepositoryContext }
  | { kind: 'change_set'; prompt: string; plan: Plan; context: RepositoryContext; files: Record<string, string> }
  | { kind: 'fix'; prompt: string; changes: ChangeSet; report: VerificationReport; originals: Record<string, string | null> }
  | { kind: 'remediation'; finding: RemediationFinding; file: { path: string; content: string } }
  | {
      kind: 'tests';
      framework: TestFramework;
      /** What the caller asked for beyond "test these sources" (focus, style), or null. */
      instructions: string | null;
      /** The files to cover, repo-relative paths (see engines/testing/collect-sources). */
      sources: TestSource[];
      /** The repository's package.json `type`, deciding how a `.js` file is loaded ('commonjs' when absent). */
      moduleType: ModuleType;
    };

export type TestFramework = 'jest' | 'vitest' | 'node:test' | 'pytest';
export const testFrameworks: readonly TestFramework[] = ['jest', 'vitest', 'node:test', 'pytest'];

export type ModuleType = 'module' | 'commonjs';

export interface TestSource {
  path: string;
  content: string;
}

/** One written test file; `cases` are the names of the tests it declares, in file order. */
export interface GeneratedTestFile {
  path: string;
  content: string;
  cases: string[];
}

/** The answer to a `tests` task: new test files only (never a change to a source). */
export interface GeneratedTests {
  summary: string;
  files: GeneratedTestFile[];
}

/** What a remediation request shows of a security finding: never a secret (the excerpt is redacted). */
export interface RemediationFinding {
  type: 'sast' | 'secrets';
  rule_id: string;
  title: string;
  description: string;
  location: { path: string; line: number | null };
  excerpt: string | null;
}

export type AiAnswer<T extends AiTask> = T extends { kind: 'plan' } ? Plan : T extends { kind: 'tests' } ? GeneratedTests : ChangeSet;

export interface AiResult<T> {
  output: T;
  usage: TokenUsage;
  /** Provider name and model id that answered, e.g. 'bedrock' / 'anthropic.claude-3-5-sonnet-20240620-v1:0'. */
  provider: string;
  model: string;
}

export interface AiProvider {
  readonly name: string;
  run<T extends AiTask>(task: T): Promise<AiResult<AiAnswer<T>>>;
}

/**
 * Thrown for failures worth retrying (429, 5xx, timeouts, connection errors) after the SDK's own
 * retries are spent; the state machine's Retry matches on this name.
 */
export class AiProviderTransientError extends Error {
  override readonly name = 'AiProviderTransientError';
}

/** Thrown when the provider answered but the answer is unusable (bad JSON, wrong shape), or a 4xx. */
export class AiProviderError extends Error {
  override readonly name = 'AiProviderError';
}
