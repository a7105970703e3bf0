import { dynamoOAuthClientRepository } from '../../functions/adapters/dynamodb/oauth-client-repository';
import type { OAuthClient, OAuthClientRepository } from '../../functions/core/oauth/client';
import { inMemoryClientRepository } from '../unit/fakes/people';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<OAuthClientRepository>]> = [
  ['the in-memory fake', async () => inMemoryClientRepository()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoOAuthClientRepository(await dynamodb.freshTable())],
];

const at = (minute: number): string => new Date(Date.parse('2026-03-01T10:00:00.000Z') + minute * 60_000).toISOString();

const application = (id: string, accountId = 'acct_owner', overrides: Partial<OAuthClient> = {}): OAuthClient => ({
  id,
  account_id: accountId,
  name: `App ${id}`,
  redirect_uris: ['https://app.example.com/callback'],
  type: 'confidential',
  secret_hash: 'a'.repeat(64),
  secret_hint: 'svc_oacs_…abcd',
  secret_created_at: at(0),
  created_at: at(0),
  updated_at: at(0),
  ...overrides,
});

describe.each(implementations)('OAuthClientRepository: %s', (_name, make) => {
  let clients: OAuthClientRepository;
  beforeEach(async () => {
    clients = await make();
  });

  it("gives back what it stored; lists an account's applications only; undefined for an unknown id", async () => {
    const [mine, other] = [application('oac_one'), application('oac_two', 'acct_other')];
    await clients.create(mine);
    await clients.create(other);
    expect(await clients.get('oac_one')).toEqual(mine);
    expect(await clients.ofAccount('acct_owner')).toEqual([mine]);
    expect(await clients.get('oac_unknown')).toBeUndefined();
  });

  it('refuses a second create of the same id and keeps the first', async () => {
    const first = application('oac_one');
    await clients.create(first);
    await expect(clients.create({ ...first, name: 'Impostor' })).rejects.toThrow();
    expect(await clients.get('oac_one')).toEqual(first);
  });

  it('updates the name and redirect URIs only, and answers the application as stored', async () => {
    const stored = application('oac_one');
    await clients.create(stored);
    const changes = { name: 'Renamed', redirect_uris: ['https://app.example.com/new', 'http://127.0.0.1/cb'], updated_at: at(5) };
    const expected = { ...stored, ...changes };
    expect(await clients.update('acct_owner', 'oac_one', changes)).toEqual(expected);
    expect(await clients.get('oac_one')).toEqual(expected);
    expect(await clients.ofAccount('acct_owner')).toEqual([expected]);
  });

  it("refuses to update another account's application or one that does not exist, and creates nothing", async () => {
    const stored = application('oac_one');
    await clients.create(stored);
    const changes = { name: 'Taken over', redirect_uris: ['https://evil.example.com/cb'], updated_at: at(5) };
    expect(await clients.update('acct_other', 'oac_one', changes)).toBeUndefined();
    expect(await clients.update('acct_owner', 'oac_gone', changes)).toBeUndefined();
    expect(await clients.get('oac_one')).toEqual(stored);
    expect(await clients.get('oac_gone')).toBeUndefined();
  });

  it('lets the last of two edits win', async () => {
    await clients.create(application('oac_one'));
    await Promise.all([
      clients.update('acct_owner', 'oac_one', { name: 'First', redirect_uris: ['https://a.example.com/cb'], updated_at: at(1) }),
      clients.update('acct_owner', 'oac_one', { name: 'Second', redirect_uris: ['https://b.example.com/cb'], updated_at: at(2) }),
    ]);
    const { name, redirect_uris } = (await clients.get('oac_one')) as OAuthClient;
    // Whichever landed last is whole: never one edit's name with the other's redirect URIs.
    expect([
      { name: 'First', redirect_uris: ['https://a.example.com/cb'] },
      { name: 'Second', redirect_uris: ['https://b.example.com/cb'] },
    ]).toContainEqual({ name, redirect_uris });
  });

  it('replaces the secret of an existing application only, and only while it is the one read', async () => {
    await clients.create(application('oac_one'));
    const secret = { hash: 'b'.repeat(64), hint: 'svc_oacs_…wxyz', created_at: at(3) };
    const other = { hash: 'c'.repeat(64), hint: 'svc_oacs_…cccc', created_at: at(3) };
    // Two rotations from the same secret at once: one is stored, the other told.
    const answers = await Promise.all([
      clients.replaceSecret('oac_one', 'a'.repeat(64), secret),
      clients.replaceSecret('oac_one', 'a'.repeat(64), other),
    ]);
    expect([...answers].sort()).toEqual(['changed', 'replaced']);
    const stored = answers[0] === 'replaced' ? secret : other;
    expect(await clients.get('oac_one', { consistent: true })).toMatchObject({
      secret_hash: stored.hash,
      secret_hint: stored.hint,
      secret_created_at: at(3),
      updated_at: at(3),
    });
    expect(await clients.replaceSecret('oac_gone', 'a'.repeat(64), secret)).toBe('not_found');
    expect(await clients.get('oac_gone')).toBeUndefined();
  });

  it("deletes the account's own application only", async () => {
    await clients.create(application('oac_one'));
    expect(await clients.delete('acct_other', 'oac_one')).toBe(false);
    expect(await clients.get('oac_one')).toBeDefined();
    expect(await clients.delete('acct_owner', 'oac_one')).toBe(true);
    expect(await clients.get('oac_one')).toBeUndefined();
    expect(await clients.delete('acct_owner', 'oac_one')).toBe(false);
  });
});
