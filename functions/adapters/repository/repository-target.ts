import { isIP } from '../http/node-net';
import { bareHostname, classifyAddress, isLocalhostName } from '../http/target-address';

/**
 * Which repository hosts the service may connect to. Repositories are fetched by the service
 * itself, so a repository address is a request the caller makes the service send: the same guard
 * as webhook targets applies, in every mode. Public addresses only; a deployment may name private
 * git hosts (its own GitLab inside the VPC), which may then resolve to private addresses (RFC 1918,
 * CGNAT, ULA). Loopback, link-local, cloud metadata and reserved addresses are refused everywhere.
 */
export interface RepositoryTargetPolicy {
  /** Host names (lower case, no port) allowed to resolve to private addresses. */
  privateHosts: readonly string[];
}

export const publicOnly: RepositoryTargetPolicy = { privateHosts: [] };

/** `REPOSITORY_PRIVATE_HOSTS`: a comma list of host names (context `repositoryPrivateHosts` in AWS). */
export const repositoryTargetPolicyFromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): RepositoryTargetPolicy => ({
  privateHosts: (env.REPOSITORY_PRIVATE_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean),
});

/** Whether a connection to `address` for the repository host `host` may be made. */
export const isAllowedRepositoryAddress = (host: string, address: string, policy: RepositoryTargetPolicy): boolean => {
  const kind = classifyAddress(address);
  if (kind === 'public') return true;
  return kind === 'private' && policy.privateHosts.includes(host);
};

/**
 * Why an https repository URL names a refused target before any resolution (a literal address
 * or `localhost`), or null. Used when a project is created or changed, and before every fetch.
 */
export const repositoryHostProblem = (url: URL, policy: RepositoryTargetPolicy): string | null => {
  const host = bareHostname(url);
  if (host === '') return 'must have a host';
  if (isIP(host) !== 0)
    return isAllowedRepositoryAddress(host, host, policy) ? null : 'must not name a private, loopback, link-local or reserved address';
  if (isLocalhostName(host)) return 'must not name the local host';
  return null;
};
