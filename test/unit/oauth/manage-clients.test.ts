import { createAccount } from '../../../functions/core/credentials/manage-credentials';
import { getClient, registerClient, updateClient } from '../../../functions/core/oauth/manage-clients';
import { inMemoryPeople } from '../fakes/people';

const origin = { ip: '127.0.0.1', userAgent: 'test' };
const actor = { type: 'user' as const, id: 'usr_admin' };

const setUp = async () => {
  const deps = inMemoryPeople();
  const account = await createAccount({ email: 'owner@example.com' }, deps);
  const registered = await registerClient({ accountId: account.id, name: 'CI Bot', redirectUris: ['https://ci.example.com/cb'] }, deps);
  return { deps, account, registered };
};

describe('editing an OAuth application', () => {
  it('changes the name and redirect URIs only (id, type and secret stay) and records what changed', async () => {
    const { deps, account, registered } = await setUp();
    const secretHash = (await deps.clients.get(registered.id))?.secret_hash;
    deps.clock.advance(60_000);
    const updated = await updateClient(
      {
        accountId: account.id,
        clientId: registered.id,
        name: '  CI Bot 2  ',
        redirectUris: ['https://ci.example.com/new', 'http://127.0.0.1/cb', 'https://ci.example.com/new'],
        actor,
        origin,
      },
      deps,
    );
    const { client_secret: _secret, ...before } = registered;
    expect(updated).toEqual({
      ...before,
      name: 'CI Bot 2',
      redirect_uris: ['https://ci.example.com/new', 'http://127.0.0.1/cb'],
      updated_at: new Date(deps.clock.now()).toISOString(),
    });
    expect(await getClient(account.id, registered.id, deps)).toEqual(updated);
    expect((await deps.clients.get(registered.id))?.secret_hash).toBe(secretHash);
    const [record] = await deps.audit.list(account.id, 1);
    expect(record).toMatchObject({
      action: 'oauth.client_updated',
      actor,
      target_id: registered.id,
      ip: '127.0.0.1',
      details: {
        name: 'CI Bot 2',
        previous_name: 'CI Bot',
        redirect_uris_added: ['https://ci.example.com/new', 'http://127.0.0.1/cb'],
        redirect_uris_removed: ['https://ci.example.com/cb'],
      },
    });
  });

  it('applies the rules of registration: every issue at once, nothing stored', async () => {
    const { deps, account, registered } = await setUp();
    const refused = await updateClient(
      {
        accountId: account.id,
        clientId: registered.id,
        name: '',
        redirectUris: ['http://ci.example.com/cb', 'https://ci.example.com/*', 'https://ci.example.com/cb#top'],
      },
      deps,
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'validation_error',
      errors: [
        { field: 'name', issue: 'must be 1 to 100 characters, without control characters' },
        { field: 'redirect_uris', issue: 'http://ci.example.com/cb must use https (http only on 127.0.0.1, [::1] or localhost)' },
        { field: 'redirect_uris', issue: 'https://ci.example.com/* must be exact: no wildcards' },
        { field: 'redirect_uris', issue: 'https://ci.example.com/cb#top must not have a fragment' },
      ],
    });
    await expect(updateClient({ accountId: account.id, clientId: registered.id, name: 'x', redirectUris: [] }, deps)).rejects.toMatchObject(
      {
        code: 'validation_error',
        errors: [{ field: 'redirect_uris', issue: 'must name 1 to 10 redirect URIs' }],
      },
    );
    expect(await getClient(account.id, registered.id, deps)).toMatchObject({
      name: 'CI Bot',
      redirect_uris: ['https://ci.example.com/cb'],
    });
    expect((await deps.audit.list(account.id, 10)).map((r) => r.action)).toEqual(['oauth.client_created']);
  });

  it("does not find another account's application, and changes nothing of it", async () => {
    const { deps, registered } = await setUp();
    const other = await createAccount({ email: 'other@example.com' }, deps);
    const change = { accountId: other.id, clientId: registered.id, name: 'Mine now', redirectUris: ['https://evil.example.com/cb'] };
    await expect(updateClient(change, deps)).rejects.toMatchObject({ code: 'not_found' });
    await expect(getClient(other.id, registered.id, deps)).rejects.toMatchObject({ code: 'not_found' });
    expect((await deps.clients.get(registered.id))?.name).toBe('CI Bot');
  });

  it('writes and records nothing when nothing changed', async () => {
    const { deps, account, registered } = await setUp();
    deps.clock.advance(60_000);
    const same = await updateClient(
      { accountId: account.id, clientId: registered.id, name: 'CI Bot', redirectUris: ['https://ci.example.com/cb'] },
      deps,
    );
    expect(same.updated_at).toBe(registered.updated_at);
    expect((await deps.audit.list(account.id, 10)).map((r) => r.action)).toEqual(['oauth.client_created']);
  });
});
