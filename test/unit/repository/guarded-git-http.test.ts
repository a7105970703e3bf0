import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GitHttpRequest, GitHttpResponse } from 'isomorphic-git';
import type { LookupAll } from '../../../functions/adapters/http/checked-address';
import { gitChangeReader } from '../../../functions/adapters/repository/change-reader';
import { gitRepository } from '../../../functions/adapters/repository/git-repository';
import { guardedGitHttp, pinnedNodeSend, type PinnedSend } from '../../../functions/adapters/repository/guarded-git-http';
import { repositoryAddressProblem } from '../../../functions/adapters/repository/repository-address';
import { publicOnly, repositoryTargetPolicyFromEnvironment } from '../../../functions/adapters/repository/repository-target';

/**
 * The guard in front of every repository fetch and push. No test here connects anywhere but to a
 * server it starts on 127.0.0.1: refusals are shown by a resolver stub and a sender spy that must
 * never be called.
 */

const answer = (statusCode = 200): GitHttpResponse => ({ url: '', statusCode, statusMessage: 'OK', headers: {}, body: undefined });

const spies = (addresses: Record<string, string[]> = {}) => {
  const looked: string[] = [];
  const sent: Array<{ request: GitHttpRequest; addresses: string[] }> = [];
  const lookup: LookupAll = async (host) => {
    looked.push(host);
    const found = addresses[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const send: PinnedSend = async (request, checked) => {
    sent.push({ request, addresses: checked.map((a) => a.address) });
    return answer();
  };
  return { looked, sent, lookup, send };
};

const refused = {
  name: 'RepositoryTargetRefused',
  reason: 'refused_target',
  message: expect.stringMatching(/^the repository could not be reached \(refused_target/),
};

describe('the repository guard', () => {
  it.each([
    ['loopback', 'https://127.0.0.1:39998/repo.git'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['link-local', 'https://169.254.10.1/repo.git'],
    ['private', 'https://10.1.2.3/repo.git'],
    ['CGNAT', 'https://100.64.0.1/repo.git'],
    ['ULA', 'https://[fd12:3456::1]/repo.git'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/repo.git'],
    ['IPv4-mapped metadata, hex', 'https://[::ffff:a9fe:a9fe]/repo.git'],
    ['localhost', 'https://localhost:8443/repo.git'],
    ['decimal loopback', 'https://2130706433/repo.git'],
  ])('refuses a literal %s address without resolving or connecting', async (_, url) => {
    const { looked, sent, lookup, send } = spies();
    await expect(guardedGitHttp({ policy: publicOnly, lookup, send }).request({ url: `${url}/info/refs` })).rejects.toMatchObject(refused);
    expect(looked).toEqual([]);
    expect(sent).toEqual([]);
  });

  it.each([
    ['a private address', ['10.0.0.7']],
    ['loopback', ['127.0.0.1']],
    ['the metadata address', ['169.254.169.254']],
    ['one public and one private address', ['93.184.216.34', '192.168.1.4']],
    ['an IPv4-mapped private address', ['::ffff:10.0.0.1']],
  ])('refuses a name that resolves to %s before any connection', async (_, addresses) => {
    const { looked, sent, lookup, send } = spies({ 'git.example.com': addresses });
    await expect(
      guardedGitHttp({ policy: publicOnly, lookup, send }).request({ url: 'https://git.example.com/acme/app.git/info/refs' }),
    ).rejects.toMatchObject(refused);
    expect(looked).toEqual(['git.example.com']);
    expect(sent).toEqual([]);
  });

  it('connects only to the addresses it checked', async () => {
    const { sent, lookup, send } = spies({ 'git.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    await guardedGitHttp({ policy: publicOnly, lookup, send }).request({ url: 'https://git.example.com/acme/app.git/info/refs' });
    expect(sent.map((s) => s.addresses)).toEqual([['93.184.216.34', '2606:2800:220:1::1']]);
  });

  it('refuses http and other schemes', async () => {
    const { sent, lookup, send } = spies({ 'git.example.com': ['93.184.216.34'] });
    for (const url of ['http://git.example.com/app.git/info/refs', 'ftp://git.example.com/app.git']) {
      await expect(guardedGitHttp({ policy: publicOnly, lookup, send }).request({ url })).rejects.toMatchObject(refused);
    }
    expect(sent).toEqual([]);
  });

  it('lets a named private git host resolve to a private address, and nothing else', async () => {
    const policy = repositoryTargetPolicyFromEnvironment({ REPOSITORY_PRIVATE_HOSTS: ' Git.Internal.Example. , other.example' });
    expect(policy.privateHosts).toEqual(['git.internal.example', 'other.example']);
    const { sent, lookup, send } = spies({
      'git.internal.example': ['10.20.30.40'],
      'git.unnamed.example': ['10.20.30.41'],
      'other.example': ['127.0.0.1'],
    });
    const client = guardedGitHttp({ policy, lookup, send });
    await client.request({ url: 'https://git.internal.example/team/app.git/info/refs' });
    expect(sent.map((s) => s.addresses)).toEqual([['10.20.30.40']]);
    await expect(client.request({ url: 'https://git.unnamed.example/team/app.git/info/refs' })).rejects.toMatchObject(refused);
    // Named or not, loopback, link-local and metadata stay refused.
    await expect(client.request({ url: 'https://other.example/app.git/info/refs' })).rejects.toMatchObject(refused);
    expect(sent).toHaveLength(1);
  });

  it('reports failures by class only: no host, port or socket message', async () => {
    const failing =
      (error: Error): PinnedSend =>
      async () => {
        throw error;
      };
    const { lookup } = spies({ 'git.example.com': ['93.184.216.34'] });
    const cases: Array<[Error, string]> = [
      [Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:39998'), { code: 'ECONNREFUSED' }), 'connection'],
      [Object.assign(new Error('write EPROTO wrong version number'), { code: 'EPROTO' }), 'tls'],
      [Object.assign(new Error("Hostname/IP does not match certificate's altnames"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'tls'],
      [Object.assign(new Error('connect ETIMEDOUT 93.184.216.34:443'), { code: 'ETIMEDOUT' }), 'timeout'],
      [new Error('Request timed out'), 'timeout'],
    ];
    for (const [error, reason] of cases) {
      const rejection = await guardedGitHttp({ policy: publicOnly, lookup, send: failing(error) })
        .request({ url: 'https://git.example.com:39998/app.git/info/refs' })
        .catch((e: unknown) => e as Error);
      expect(rejection).toMatchObject({
        name: 'RepositoryUnavailable',
        reason,
        message: `the repository could not be reached (${reason})`,
      });
    }
    const unresolved = await guardedGitHttp({ policy: publicOnly, lookup, send: failing(new Error('never')) })
      .request({ url: 'https://missing.example/app.git/info/refs' })
      .catch((e: unknown) => e as Error);
    expect(unresolved).toMatchObject({ reason: 'dns', message: 'the repository could not be reached (dns)' });
  });

  it('refuses a checkout before any connection, and the message holds no address', async () => {
    const { sent, lookup, send } = spies({ 'metadata.attacker.example': ['169.254.169.254'] });
    const repository = gitRepository({ http: guardedGitHttp({ policy: publicOnly, lookup, send }) });
    for (const url of ['https://127.0.0.1:39998/repo.git', 'https://metadata.attacker.example/latest/meta-data/']) {
      const error = (await repository.checkout({ url, dir: '/nonexistent/never-written' }).catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject(refused);
      expect(error.message).not.toMatch(/39998|127\.0\.0\.1|169\.254|attacker/);
    }
    expect(sent).toEqual([]);
  });

  it("guards a review's fetch the same way, and reads no file:/// repository unless the local runtime enabled them", async () => {
    const { sent, lookup, send } = spies({ 'metadata.attacker.example': ['169.254.169.254'] });
    const reader = gitChangeReader({ http: guardedGitHttp({ policy: publicOnly, lookup, send }) });
    for (const url of ['https://127.0.0.1:39998/repo.git', 'https://metadata.attacker.example/latest/meta-data/']) {
      const error = (await reader.read({ url, head: 'feature', dir: '/nonexistent/never-written' }).catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject(refused);
      expect(error.message).not.toMatch(/39998|127\.0\.0\.1|169\.254|attacker/);
    }
    expect(sent).toEqual([]);
    await expect(gitChangeReader().read({ url: 'file:///etc', head: 'main', dir: '/nonexistent/never-written' })).rejects.toMatchObject({
      name: 'RepositoryTargetRefused',
      message: expect.stringContaining('only in the local runtime'),
    });
  });
});

describe('the pinned sender', () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} host=${request.headers.host}`);
      if (request.url?.startsWith('/moved')) response.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('connects to the checked address, never resolving the name again, and follows no redirect', async () => {
    const send = pinnedNodeSend(5_000);
    // git.invalid cannot resolve (RFC 6761): reaching the server proves the pinned address was used.
    const ok = await send({ url: `http://git.invalid:${port}/app.git/info/refs`, method: 'GET', headers: {} }, [
      { address: '127.0.0.1', family: 4 },
    ]);
    expect(ok.statusCode).toBe(200);
    const moved = await send({ url: `http://git.invalid:${port}/moved/info/refs`, method: 'GET', headers: {} }, [
      { address: '127.0.0.1', family: 4 },
    ]);
    expect(moved.statusCode).toBe(302);
    expect(seen).toEqual([`GET /app.git/info/refs host=git.invalid:${port}`, `GET /moved/info/refs host=git.invalid:${port}`]);
  });
});

describe('repository addresses at project creation', () => {
  const rules = { fileRepositories: false, policy: publicOnly };
  it.each([
    ['https://127.0.0.1:39998/repo.git', 'must not name a private, loopback, link-local or reserved address'],
    ['https://169.254.169.254/latest/meta-data/', 'must not name a private, loopback, link-local or reserved address'],
    ['https://localhost/repo.git', 'must not name the local host'],
    ['file:///srv/other-account/repo', 'file:/// repositories are available only in the local runtime; use an https:// URL'],
  ])('refuses %s', (address, problem) => {
    expect(repositoryAddressProblem(address, rules)).toBe(problem);
  });

  it('accepts public https URLs, ssh addresses, and file:/// where the local runtime enabled them', () => {
    expect(repositoryAddressProblem('https://github.com/acme/shop', rules)).toBeNull();
    expect(repositoryAddressProblem('git@github.com:acme/shop.git', rules)).toBeNull();
    expect(repositoryAddressProblem('file:///srv/repo', { ...rules, fileRepositories: true })).toBeNull();
  });
});
