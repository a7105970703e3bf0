import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { type Address, type LookupAll, pinnedLookup, resolveChecked, systemLookup } from '../http/checked-address';
import { bareHostname } from '../http/target-address';
import { classifyNetworkError } from '../http/webhook-http-client';
import { RepositoryUnreachable } from './repository-errors';
import { isAllowedRepositoryAddress, repositoryHostProblem, type RepositoryTargetPolicy } from './repository-target';

/** Sends one request whose host has been resolved and checked, connecting only to `addresses`. */
export type PinnedSend = (request: GitHttpRequest, addresses: Address[]) => Promise<GitHttpResponse>;

export interface GuardedGitHttpOptions {
  policy: RepositoryTargetPolicy;
  /** Resolves a host name to all its addresses. Default: the system resolver. */
  lookup?: LookupAll;
  /** Default: isomorphic-git's Node client, its connection pinned to the checked addresses. */
  send?: PinnedSend;
  /** Bound on name resolution. Default 5 s. */
  resolveTimeoutMs?: number;
  /** Bound on a silent socket. Default 60 s. */
  idleTimeoutMs?: number;
}

/** isomorphic-git's Node client (simple-get) with the connection pinned and redirects left to us. */
export const pinnedNodeSend =
  (idleTimeoutMs: number): PinnedSend =>
  (request, addresses) => {
    const host = bareHostname(new URL(request.url));
    return nodeHttp.request({
      ...request,
      // A fresh agent: no pooled socket opened for another address is reused.
      agent: false,
      fetchOptions: {
        followRedirects: false,
        lookup: pinnedLookup(addresses),
        servername: host,
        timeout: idleTimeoutMs,
      },
    });
  };

const networkClassOf = (error: unknown): ReturnType<typeof classifyNetworkError> =>
  error instanceof Error && /timed out/i.test(error.message) && !(error as { code?: unknown }).code
    ? 'timeout'
    : classifyNetworkError(error);

/**
 * The HTTP client every repository fetch and push goes through (DESIGN.md, webhook targets):
 * https only; the host resolved and EVERY address it resolves to checked before any connection
 * (a literal address too); the connection made to a checked address (no second resolution);
 * redirects never followed (a 3xx is an answer, which the git client reports). A refusal or a
 * network failure is a `RepositoryUnreachable` that names only its class, never an address,
 * a port or the socket's message, so the service cannot be used to map a network.
 */
export const guardedGitHttp = (options: GuardedGitHttpOptions): HttpClient => {
  const lookup = options.lookup ?? systemLookup;
  const send = options.send ?? pinnedNodeSend(options.idleTimeoutMs ?? 60_000);
  const resolveTimeoutMs = options.resolveTimeoutMs ?? 5_000;
  return {
    async request(request) {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new RepositoryUnreachable('invalid_address');
      }
      if (url.protocol !== 'https:') throw new RepositoryUnreachable('refused_target');
      if (repositoryHostProblem(url, options.policy)) throw new RepositoryUnreachable('refused_target');
      const host = bareHostname(url);
      const resolution = await resolveChecked(
        host,
        (address) => isAllowedRepositoryAddress(host, address, options.policy),
        lookup,
        resolveTimeoutMs,
      );
      if (resolution.kind === 'refused') throw new RepositoryUnreachable('refused_target');
      if (resolution.kind === 'dns') throw new RepositoryUnreachable('dns');
      if (resolution.kind === 'timeout') throw new RepositoryUnreachable('timeout');
      try {
        return await send(request, resolution.addresses);
      } catch (error) {
        if (error instanceof RepositoryUnreachable) throw error;
        throw new RepositoryUnreachable(networkClassOf(error), { cause: error });
      }
    },
  };
};
