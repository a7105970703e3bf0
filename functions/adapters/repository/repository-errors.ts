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

/** Why a repository could not be reached, as a class: never an address, a port or a socket's message. */
export type UnreachableReason =
  | 'refused_target'
  | 'invalid_address'
  | 'dns'
  | 'timeout'
  | 'connection'
  | 'tls'
  | 'redirected'
  | 'access_denied'
  | 'not_found'
  | 'not_a_git_repository'
  | 'http_status';

const hints: Partial<Record<UnreachableReason, string>> = {
  refused_target: 'private, loopback, link-local and metadata addresses are refused',
  redirected: 'redirects are not followed; use the address it moved to',
  access_denied: 'check the repository token',
};

/** The network side of a repository failed: "the repository could not be reached (<class>)". */
export class RepositoryUnreachable extends RepositoryUnavailable {
  constructor(
    readonly reason: UnreachableReason,
    options?: { cause?: unknown },
  ) {
    super(`the repository could not be reached (${reason}${hints[reason] ? `: ${hints[reason]}` : ''})`, options);
    // A refused address stays refused: the state machine retries only RepositoryUnavailable.
    this.name = reason === 'refused_target' || reason === 'invalid_address' ? 'RepositoryTargetRefused' : 'RepositoryUnavailable';
  }
}

/** A `file:///` repository where the runtime does not allow them: anywhere but locally, a caller would read the server's disk. */
export const fileRepositoriesDisabled = (): RepositoryUnavailable =>
  Object.assign(new RepositoryUnavailable('file:/// repositories are available only in the local runtime; use an https:// repository'), {
    name: 'RepositoryTargetRefused',
  });
