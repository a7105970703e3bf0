import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { secretArn } from './ai-settings';
import type { ServiceFunction } from './service-function';

/**
 * The deployment's token for private https repositories (context `repositoryTokenSecret`, a
 * Secrets Manager name) and where it may be sent (`repositoryTokenHosts`: `github.com`, or
 * `github.com/acme` for the repositories under /acme/ only). A project names its own repository,
 * so a token without hosts would be offered to any server a caller names: synth refuses it.
 */
export interface RepositoryToken {
  secretName: string;
  hosts: readonly string[];
}

const hostOrPrefix = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(\/[^\s/,]+)*\/?$/i;

const contextValue = (scope: Construct, name: string): string => {
  const value: unknown = scope.node.tryGetContext(name);
  return typeof value === 'string' ? value.trim() : '';
};

export const repositoryTokenFromContext = (scope: Construct): RepositoryToken | undefined => {
  const secretName = contextValue(scope, 'repositoryTokenSecret');
  const hosts = contextValue(scope, 'repositoryTokenHosts')
    .split(',')
    .map((host) => host.trim())
    .filter(Boolean);
  if (!secretName) {
    if (hosts.length > 0)
      throw new Error('repositoryTokenHosts says where a repository token may go, but no repositoryTokenSecret names one');
    return undefined;
  }
  if (hosts.length === 0) {
    throw new Error(
      'repositoryTokenSecret needs repositoryTokenHosts: the hosts (github.com) or host and owner prefixes (github.com/acme) ' +
        'the token may be sent to. Projects name their own repositories; without the list the token would go to any of them.',
    );
  }
  const wrong = hosts.find((host) => !hostOrPrefix.test(host));
  if (wrong !== undefined) throw new Error(`repositoryTokenHosts: "${wrong}" is not a host or host/path (github.com, github.com/acme)`);
  return { secretName, hosts };
};

/** The variables `functions/adapters/repository/repository-runtime.ts` reads; none without a token. */
export const repositoryTokenEnvironment = (token: RepositoryToken | undefined): Record<string, string> =>
  token ? { REPOSITORY_TOKEN_SECRET: token.secretName, REPOSITORY_TOKEN_HOSTS: token.hosts.join(',') } : {};

/** The function may read the token's secret, and no other. */
export const grantRepositoryToken = (fn: ServiceFunction, token: RepositoryToken | undefined): void => {
  if (!token) return;
  fn.allow(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArn(fn, token.secretName)] }));
};
