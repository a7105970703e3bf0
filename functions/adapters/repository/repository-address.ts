import { fileURLToPath } from 'node:url';
import { RepositoryUnavailable } from './repository-errors';

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
