import { bareHostname } from '../http/target-address';

/**
 * Where the deployment's repository token may be sent. A project names its repository, so without
 * this list the token would go to whatever server a caller chose: isomorphic-git answers any 401
 * with the credentials it holds. Each entry is a host (`github.com`: every repository there) or a
 * host and path prefix (`github.com/acme`: the repositories under /acme/ only), matched on whole
 * path segments, https and the default port only.
 */
export interface RepositoryTokenReach {
  entries: readonly { host: string; pathPrefix: string }[];
}

const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);

/** `REPOSITORY_TOKEN_HOSTS`: a comma list of `host` or `host/path` (context `repositoryTokenHosts` in AWS). */
export const repositoryTokenReachFromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): RepositoryTokenReach => ({
  entries: (env.REPOSITORY_TOKEN_HOSTS ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      const [host = '', ...path] = entry.split('/');
      return { host: host.replace(/\.$/, ''), pathPrefix: segmentsOf(path.join('/')).join('/') };
    }),
});

/** Whether the repository at `url` is one the token may be offered to. */
export const tokenMayReach = (url: string, reach: RepositoryTokenReach): boolean => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return false;
  const host = bareHostname(parsed).toLowerCase();
  // Compared as sent (percent-encoding kept), so `acme%2F..%2Fother` is not under `acme`.
  const path = segmentsOf(parsed.pathname.toLowerCase());
  return reach.entries.some((entry) => {
    if (entry.host !== host) return false;
    const prefix = segmentsOf(entry.pathPrefix);
    return prefix.every((segment, i) => path[i] === segment);
  });
};
