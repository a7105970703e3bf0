import { InvalidBranchName } from './repository-errors';

/** Why `name` cannot be a branch (the rules of `git check-ref-format --branch`), or null. */
export const branchNameProblem = (name: string): string | null => {
  if (name.length === 0) return 'is empty';
  if (name.length > 255) return 'is longer than 255 characters';
  // Control characters, space and ~ ^ : ? * [ \ are never part of a ref name.
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.startsWith('-')) return 'starts with "-"';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{') || name === '@') return 'contains "@{" or is "@"';
  if (name.endsWith('.')) return 'ends with "."';
  for (const component of name.split('/')) {
    if (component === '') return 'has an empty component (leading, trailing or double "/")';
    if (component.startsWith('.')) return 'has a component starting with "."';
    if (component.endsWith('.lock')) return 'has a component ending with ".lock"';
  }
  return null;
};

export const assertBranchName = (name: string): void => {
  const problem = branchNameProblem(name);
  if (problem) throw new InvalidBranchName(name, problem);
};
