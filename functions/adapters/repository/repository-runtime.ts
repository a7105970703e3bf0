import type { RepositoryAccess } from '../../core/workflows/stages/stage-deps';
import { gitRepository, type RepositoryCredentials } from './git-repository';
import { guardedGitHttp } from './guarded-git-http';
import { repositoryTargetPolicyFromEnvironment } from './repository-target';
import { repositoryTokenReachFromEnvironment, tokenMayReach } from './repository-token-reach';

const readSecretString = async (secretId: string): Promise<string> => {
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
  return secret.SecretString ?? '';
};

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The token `REPOSITORY_TOKEN_SECRET` (AWS) names, for the repository at a URL: a Secrets Manager
 * secret holding a token (raw, or JSON with `token`), read on first use; none when the variable is
 * unset or the URL is not one `REPOSITORY_TOKEN_HOSTS` lets the token reach (the secret is then not
 * even read).
 */
export const repositoryCredentialsFromEnvironment = (
  env: Environment = process.env,
  readSecret?: (id: string) => Promise<string>,
): ((url: string) => Promise<RepositoryCredentials | undefined>) => {
  const secretId = env.REPOSITORY_TOKEN_SECRET;
  const reach = repositoryTokenReachFromEnvironment(env);
  let credentials: Promise<RepositoryCredentials | undefined> | undefined;
  return (url) => {
    if (!secretId || !tokenMayReach(url, reach)) return Promise.resolve(undefined);
    credentials ??= (async () => {
      const value = (await (readSecret ?? readSecretString)(secretId)).trim();
      const token = value.startsWith('{') ? String((JSON.parse(value) as { token?: unknown }).token ?? '') : value;
      if (!token) throw new Error(`secret ${secretId} holds no token`);
      return { token };
    })().catch((error: unknown) => {
      credentials = undefined;
      throw error;
    });
    return credentials;
  };
};

/**
 * Repository access as the deployment configured it. `REPOSITORY_TOKEN_SECRET` (AWS) names a
 * Secrets Manager secret holding a token (raw, or JSON with `token`): used to fetch private https
 * repositories on the hosts `REPOSITORY_TOKEN_HOSTS` names, and enables pushing result branches.
 * Locally `LOCAL_REPOSITORY_PUSH=true` lets workflows push branches into `file:///` repositories.
 *
 * Every https fetch and push goes through the guarded client (public addresses only, plus the
 * private hosts `REPOSITORY_PRIVATE_HOSTS` names); `file:///` repositories only where the local
 * runtime enabled them (`LOCAL_FILE_REPOSITORIES=true`).
 */
export const repositoryAccessFromEnvironment = (
  env: Environment = process.env,
  readSecret?: (id: string) => Promise<string>,
): RepositoryAccess => {
  const credentialsOf = repositoryCredentialsFromEnvironment(env, readSecret);
  const pushEnabled = Boolean(env.REPOSITORY_TOKEN_SECRET) || env.LOCAL_REPOSITORY_PUSH === 'true';
  const { checkout, pushBranch } = gitRepository({
    http: guardedGitHttp({ policy: repositoryTargetPolicyFromEnvironment(env) }),
    fileRepositories: env.LOCAL_FILE_REPOSITORIES === 'true',
  });
  return {
    checkout: async (request) => checkout({ ...request, credentials: await credentialsOf(request.url) }),
    ...(pushEnabled ? { pushBranch: async (request) => pushBranch({ ...request, credentials: await credentialsOf(request.url) }) } : {}),
  };
};
