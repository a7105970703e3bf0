import { App } from 'aws-cdk-lib';
import { repositoryTokenFromContext } from '../../lib/constructs/repository-token';

const fromContext = (context: Record<string, string>) => () => repositoryTokenFromContext(new App({ context }));

describe('the repository token settings', () => {
  it('are none without a secret', () => {
    expect(fromContext({})()).toBeUndefined();
  });

  it('take the secret with the hosts and owner prefixes it may be sent to', () => {
    expect(fromContext({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: 'github.com/acme, gitlab.example.org' })()).toEqual({
      secretName: 'repo/token',
      hosts: ['github.com/acme', 'gitlab.example.org'],
    });
  });

  it('refuse a secret with no hosts: the token would go to any repository a project names', () => {
    expect(fromContext({ repositoryTokenSecret: 'repo/token' })).toThrow(/repositoryTokenSecret needs repositoryTokenHosts/);
    expect(fromContext({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: ' , ' })).toThrow(/needs repositoryTokenHosts/);
  });

  it('refuse what is not a host or host/path, and hosts without a secret', () => {
    for (const hosts of ['https://github.com', 'github.com:443', 'git hub.com', '*.github.com'])
      expect(fromContext({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: hosts })).toThrow(/is not a host or host\/path/);
    expect(fromContext({ repositoryTokenHosts: 'github.com' })).toThrow(/no repositoryTokenSecret/);
  });
});
