/** The repository cannot be reached, found, read or written (network, permissions, not a repository, ssh). */
export class RepositoryUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RepositoryUnavailable';
  }
}

/** The repository is there, but not the branch (or commit) asked for. */
export class RepositoryRefNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RepositoryRefNotFound';
  }
}

/** A branch of that name is already published; it is never overwritten. */
export class BranchExists extends Error {
  constructor(readonly branch: string) {
    super(`branch ${branch} already exists in the repository`);
    this.name = 'BranchExists';
  }
}

export class InvalidBranchName extends Error {
  constructor(branch: string, issue: string) {
    super(`invalid branch name ${JSON.stringify(branch.slice(0, 200))}: ${issue}`);
    this.name = 'InvalidBranchName';
  }
}
