import type { FileChange } from '../workflows/stage-data';
import { repositoryPathProblem } from './repository-path';

export interface ChangeSetProblem {
  path: string;
  issue: string;
}

export class InvalidChangeSetError extends Error {
  constructor(readonly problems: ChangeSetProblem[]) {
    super(
      `The change set is invalid: ${problems
        .slice(0, 5)
        .map((p) => `${JSON.stringify(p.path.slice(0, 200))} ${p.issue}`)
        .join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    );
    this.name = 'InvalidChangeSetError';
  }
}

/** What is wrong with the paths of a change set on their own (no file system access). */
export const changeSetProblems = (changes: readonly FileChange[]): ChangeSetProblem[] => {
  const problems: ChangeSetProblem[] = [];
  const seen = new Set<string>();
  const written = new Set(changes.filter((c) => c.content !== null).map((c) => c.path));
  for (const { path, content } of changes) {
    const problem = repositoryPathProblem(path);
    if (problem) {
      problems.push({ path, issue: problem });
      continue;
    }
    if (seen.has(path)) problems.push({ path, issue: 'appears more than once' });
    seen.add(path);
    if (content === null) continue;
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const folder = segments.slice(0, i).join('/');
      if (written.has(folder)) problems.push({ path, issue: `needs ${folder} to be a folder, but it is written as a file` });
    }
  }
  return problems;
};

export const assertValidChangeSet = (changes: readonly FileChange[]): void => {
  const problems = changeSetProblems(changes);
  if (problems.length > 0) throw new InvalidChangeSetError(problems);
};
