import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoOneTimeLinkRepository } from '../../functions/adapters/dynamodb/one-time-link-repository';
import { dynamoPasswordResetRequestStore } from '../../functions/adapters/dynamodb/password-reset-request-store';
import { passwordResetRequest } from '../../functions/adapters/dynamodb/table-keys';
import type { OneTimeLink, OneTimeLinkRepository } from '../../functions/core/users/one-time-links';
import type { PasswordResetRequest, PasswordResetRequestStore } from '../../functions/core/users/password-reset-requests';
import { inMemoryLinkRepository, inMemoryResetRequestStore, inMemoryUserRepository } from '../unit/fakes/people';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

interface Subject {
  store: PasswordResetRequestStore;
  links: Pick<OneTimeLinkRepository, 'find'>;
  /** The stored request, with the claim's `link_hash` when claimed. */
  stored(id: string): Promise<object | undefined>;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const links = inMemoryLinkRepository(inMemoryUserRepository());
      const store = inMemoryResetRequestStore(links.links);
      return { store, links, stored: async (id) => store.stored.get(id) };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        store: dynamoPasswordResetRequestStore(table),
        links: dynamoOneTimeLinkRepository(table),
        stored: async (id) =>
          (await table.client.send(new GetCommand({ TableName: table.tableName, Key: passwordResetRequest(id), ConsistentRead: true })))
            .Item,
      };
    },
  ],
];

const request: PasswordResetRequest = {
  id: '0b7f5a8e-2f8e-4d0e-9a55-4f4b0c6a1d11',
  email: 'alice@acme.test',
  origin: 'http://127.0.0.1:3410',
  created_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2026-03-01T11:00:00.000Z',
};

const linkOf = (hash: string): OneTimeLink => ({
  hash,
  user_id: 'usr_01JD0000000000000000000000',
  purpose: 'reset_password',
  created_at: request.created_at,
  expires_at: request.expires_at,
  password_fingerprint: 'none',
});

describe.each(implementations)('PasswordResetRequestStore: %s', (_name, make) => {
  let subject: Subject;
  beforeEach(async () => {
    subject = await make();
  });

  it('is claimed once: the claim stores the link with it, a second claim stores nothing', async () => {
    await subject.store.record(request);
    await expect(subject.store.record(request)).rejects.toThrow();
    expect(await subject.store.claim(request.id, linkOf('a'.repeat(43)))).toBe('claimed');
    expect(await subject.store.claim(request.id, linkOf('b'.repeat(43)))).toBe('handled');
    expect(await subject.links.find('a'.repeat(43))).toMatchObject({ user_id: linkOf('').user_id, purpose: 'reset_password' });
    expect(await subject.links.find('b'.repeat(43))).toBeUndefined();
    expect(await subject.stored(request.id)).toMatchObject({ ...request, link_hash: 'a'.repeat(43) });
  });

  it('a released claim takes its link away and can be claimed again; a discarded request cannot', async () => {
    await subject.store.record(request);
    expect(await subject.store.claim(request.id, linkOf('a'.repeat(43)))).toBe('claimed');
    await subject.store.release(request.id, 'a'.repeat(43));
    expect(await subject.links.find('a'.repeat(43))).toBeUndefined();
    expect(await subject.stored(request.id)).not.toHaveProperty('link_hash');
    expect(await subject.store.claim(request.id, linkOf('c'.repeat(43)))).toBe('claimed');
    await subject.store.discard(request.id);
    await subject.store.discard(request.id);
    expect(await subject.stored(request.id)).toBeUndefined();
    expect(await subject.store.claim(request.id, linkOf('d'.repeat(43)))).toBe('handled');
    expect(await subject.links.find('d'.repeat(43))).toBeUndefined();
    // The link of the claim that sent stays: it is the one in the e-mail.
    expect(await subject.links.find('c'.repeat(43))).toBeDefined();
  });
});
