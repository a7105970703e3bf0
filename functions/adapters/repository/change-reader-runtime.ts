import type { ChangeReader } from '../../core/reviews/change-source';
import { gitChangeReader } from './change-reader';
import { guardedGitHttp } from './guarded-git-http';
import { repositoryTargetPolicyFromEnvironment } from './repository-target';
import { repositoryCredentialsFromEnvironment } from './repository-runtime';

/**
 * The change reader as the deployment configured it: private https repositories with the token of
 * `REPOSITORY_TOKEN_SECRET` where `REPOSITORY_TOKEN_HOSTS` lets it go; every fetch through the
 * guarded client (public addresses, plus the hosts `REPOSITORY_PRIVATE_HOSTS` names); `file:///`
 * only where the local runtime enabled them.
 */
export const changeReaderFromEnvironment = (env: Readonly<Record<string, string | undefined>> = process.env): ChangeReader => {
  const credentialsOf = repositoryCredentialsFromEnvironment(env);
  const reader = gitChangeReader({
    http: guardedGitHttp({ policy: repositoryTargetPolicyFromEnvironment(env) }),
    fileRepositories: env.LOCAL_FILE_REPOSITORIES === 'true',
  });
  return { read: async (request) => reader.read({ ...request, credentials: await credentialsOf(request.url) }) };
};
