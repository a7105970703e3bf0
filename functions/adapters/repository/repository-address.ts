import { fileURLToPath } from 'node:url';
import { RepositoryUnavailable } from './repository-errors';
import { repositoryHostProblem, repositoryTargetPolicyFromEnvironment, type RepositoryTargetPolicy } from './repository-target';

export type RepositoryAddress = { kind: 'https'; url: string } | { kind: 'file'; path: string };

/** Where a repository lives: https (anywhere) or file:/// (the local runtime). */
export const parseRepositoryAddress = (address: string): RepositoryAddress => {
  if (/^(ssh|git\+ssh|ssh\+git):\/\//i.test(address) || /^[\w.-]+@[\w.-]+:/.test(address)) {
    throw new RepositoryUnavailable('ssh repositories are not supported; use https');
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new RepositoryUnavailable('the repository address is not a URL; use https://…');
  }
  if (url.protocol === 'https:') {
    // Tokens belong in the credentials, where they are never logged, not in a stored address.
    if (url.username || url.password) {
      throw new RepositoryUnavailable('credentials in the repository URL are not supported; configure a token instead');
    }
    return { kind: 'https', url: address };
  }
  if (url.protocol === 'file:') {
    try {
      return { kind: 'file', path: fileURLToPath(url) };
    } catch {
      throw new RepositoryUnavailable('a file repository URL must look like file:///absolute/path');
    }
  }
  throw new RepositoryUnavailable(`${url.protocol.replace(/:$/, '')} repositories are not supported; use https`);
};

export interface RepositoryAddressRules {
  fileRepositories: boolean;
  policy: RepositoryTargetPolicy;
}

/**
 * Why a project may not name `address` as its repository in this deployment, or null: a
 * `file:///` repository where the local runtime did not enable them, an https URL whose host is a
 * literal private, loopback, link-local or reserved address or `localhost`. Host names are
 * resolved and checked on every fetch, not here (a name may resolve differently later).
 */
export const repositoryAddressProblem = (address: string, rules: RepositoryAddressRules): string | null => {
  if (/^file:/i.test(address)) {
    return rules.fileRepositories ? null : 'file:/// repositories are available only in the local runtime; use an https:// URL';
  }
  if (!/^https:/i.test(address)) return null;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'must be a valid https:// URL';
  }
  return repositoryHostProblem(url, rules.policy);
};

export const repositoryAddressRulesFromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): RepositoryAddressRules => ({
  fileRepositories: env.LOCAL_FILE_REPOSITORIES === 'true',
  policy: repositoryTargetPolicyFromEnvironment(env),
});
