import { jest } from '@jest/globals';
import { repositoryCredentialsFromEnvironment } from '../../../functions/adapters/repository/repository-runtime';
import { repositoryTokenReachFromEnvironment, tokenMayReach } from '../../../functions/adapters/repository/repository-token-reach';

const reach = (hosts: string) => repositoryTokenReachFromEnvironment({ REPOSITORY_TOKEN_HOSTS: hosts });

describe('where the repository token may go', () => {
  it('reaches every repository of a named host, https on the default port only', () => {
    const github = reach('github.com');
    expect(tokenMayReach('https://github.com/acme/app.git', github)).toBe(true);
    expect(tokenMayReach('https://GitHub.com./other/app', github)).toBe(true);
    expect(tokenMayReach('http://github.com/acme/app.git', github)).toBe(false);
    expect(tokenMayReach('https://github.com:8443/acme/app.git', github)).toBe(false);
    expect(tokenMayReach('https://user:pw@github.com/acme/app.git', github)).toBe(false);
  });

  it('does not reach a look-alike host', () => {
    const github = reach('github.com');
    for (const url of [
      'https://attacker.example/x.git',
      'https://github.com.attacker.example/acme/app.git',
      'https://evilgithub.com/acme/app.git',
      'https://api.github.com/acme/app.git',
      'not a url',
    ])
      expect(tokenMayReach(url, github)).toBe(false);
  });

  it('limits a host and path prefix to the repositories under it, on whole segments', () => {
    const acme = reach(' github.com/Acme/ , gitlab.example.org/platform/tools ');
    expect(tokenMayReach('https://github.com/acme/app.git', acme)).toBe(true);
    expect(tokenMayReach('https://github.com/ACME/app', acme)).toBe(true);
    expect(tokenMayReach('https://gitlab.example.org/platform/tools/cli.git', acme)).toBe(true);
    expect(tokenMayReach('https://github.com/acme-evil/app.git', acme)).toBe(false);
    expect(tokenMayReach('https://github.com/other/app.git', acme)).toBe(false);
    expect(tokenMayReach('https://github.com/acme/../other/app.git', acme)).toBe(false);
    expect(tokenMayReach('https://github.com/acme%2F..%2Fother/app.git', acme)).toBe(false);
    expect(tokenMayReach('https://gitlab.example.org/platform/app.git', acme)).toBe(false);
  });

  it('reaches nothing when no host is named', () => {
    expect(tokenMayReach('https://github.com/acme/app.git', reach(''))).toBe(false);
    expect(tokenMayReach('https://github.com/acme/app.git', repositoryTokenReachFromEnvironment({}))).toBe(false);
  });
});

describe('the repository credentials of a deployment', () => {
  const env = { REPOSITORY_TOKEN_SECRET: 'repo-token', REPOSITORY_TOKEN_HOSTS: 'github.com/acme' };

  it('offers the token to a repository in reach, reading the secret once', async () => {
    const readSecret = jest.fn(async () => '{"token":"ghp_secret"}');
    const credentialsFor = repositoryCredentialsFromEnvironment(env, readSecret);
    expect(await credentialsFor('https://github.com/acme/app.git')).toEqual({ token: 'ghp_secret' });
    expect(await credentialsFor('https://github.com/acme/api.git')).toEqual({ token: 'ghp_secret' });
    expect(readSecret).toHaveBeenCalledTimes(1);
  });

  it('offers nothing to a repository out of reach, without reading the secret', async () => {
    const readSecret = jest.fn(async () => 'ghp_secret');
    const credentialsFor = repositoryCredentialsFromEnvironment(env, readSecret);
    expect(await credentialsFor('https://attacker.example/x.git')).toBeUndefined();
    expect(await credentialsFor('https://github.com/other/app.git')).toBeUndefined();
    expect(readSecret).not.toHaveBeenCalled();
  });

  it('offers nothing anywhere without hosts, even with a secret', async () => {
    const readSecret = jest.fn(async () => 'ghp_secret');
    const credentialsFor = repositoryCredentialsFromEnvironment({ REPOSITORY_TOKEN_SECRET: 'repo-token' }, readSecret);
    expect(await credentialsFor('https://github.com/acme/app.git')).toBeUndefined();
    expect(readSecret).not.toHaveBeenCalled();
  });
});
