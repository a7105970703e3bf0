import type { ChangeReader } from '../../core/reviews/change-source';
import { gitChangeReader } from './change-reader';
import { repositoryCredentialsFromEnvironment } from './repository-runtime';

/** The change reader as the deployment configured it: private https repositories with the token of `REPOSITORY_TOKEN_SECRET`. */
export const changeReaderFromEnvironment = (env: Readonly<Record<string, string | undefined>> = process.env): ChangeReader => {
  const credentialsOf = repositoryCredentialsFromEnvironment(env);
  const reader = gitChangeReader();
  return { read: async (request) => reader.read({ ...request, credentials: await credentialsOf() }) };
};
