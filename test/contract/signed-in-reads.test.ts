import { dynamoAccountRepository } from '../../functions/adapters/dynamodb/account-repository';
import { dynamoSessionRepository } from '../../functions/adapters/dynamodb/session-repository';
import { dynamoSignedInReads } from '../../functions/adapters/dynamodb/signed-in-reads';
import { dynamoUserRepository } from '../../functions/adapters/dynamodb/user-repository';
import { dynamoWebhookRepository } from '../../functions/adapters/dynamodb/webhook-repository';
import type { Account, AccountRepository } from '../../functions/core/credentials/credential';
import { newId } from '../../functions/core/ids';
import type { Session, SessionRepository, SignedInReads } from '../../functions/core/sessions/session';
import type { Tenant } from '../../functions/core/tenancy';
import type { Membership, UserRepository } from '../../functions/core/users/user';
import type { Webhook, WebhookRepository } from '../../functions/core/webhooks/webhook';
import { inMemorySessionRepository, inMemorySignedInReads, inMemoryUserRepository } from '../unit/fakes/people';
import { inMemoryAccountRepository } from '../unit/fakes/account-repository';
import { inMemoryWebhooks } from '../unit/fakes/webhook-repositories';
import { useDynamoDbLocal } from './support/table';
import { userRecord } from './support/records';

const dynamodb = useDynamoDbLocal();

/** The page's first read, and the repositories whose items it reads. */
interface Subject {
  reads: SignedInReads;
  sessions: SessionRepository;
  users: UserRepository;
  accounts: AccountRepository;
  webhooks: WebhookRepository;
}

const implementations: Array<[string, () => Promise<Subject>]> = [
  [
    'the in-memory fake',
    async () => {
      const [sessions, users, accounts, webhooks] = [
        inMemorySessionRepository(),
        inMemoryUserRepository(),
        inMemoryAccountRepository(),
        inMemoryWebhooks(),
      ];
      const reads = inMemorySignedInReads(sessions, users, accounts, (tenant: Tenant) => webhooks.failedCount(tenant));
      return { sessions, users, accounts, webhooks, reads };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return {
        reads: dynamoSignedInReads(table),
        sessions: dynamoSessionRepository(table),
        users: dynamoUserRepository(table),
        accounts: dynamoAccountRepository(table),
        webhooks: dynamoWebhookRepository(table),
      };
    },
  ],
];

const at = '2026-03-01T10:00:00.000Z';
const live: Tenant = { accountId: 'acct_one', mode: 'live' };

const user = userRecord({ id: 'usr_a', email: 'a@example.com' }, at);
const account: Account = { id: 'acct_one', email: 'owner@example.com', created_at: at };
const membership: Membership = { account_id: 'acct_one', user_id: 'usr_a', role: 'viewer', created_at: at };
const session: Session = {
  id: 'ses_1',
  hash: 'a'.repeat(64),
  user_id: 'usr_a',
  account_id: 'acct_one',
  stage: 'active',
  csrf_token: 'c'.repeat(43),
  created_at: at,
  last_seen_at: at,
  expires_at: '2026-03-08T10:00:00.000Z',
  ip: null,
  user_agent: null,
};
const webhook = (n: number, status: Webhook['status']): Webhook => ({
  id: newId('webhook', Date.parse(at) + n),
  url: 'https://hooks.example.com/in',
  events: ['*'],
  active: true,
  status,
  description: null,
  created_at: at,
  updated_at: at,
  failed_at: status === 'failed' ? at : null,
  secret: 'whsec_contract',
  previous_secret: null,
  previous_secret_expires_at: null,
});

describe.each(implementations)('SignedInReads: %s', (_name, make) => {
  let subject: Subject;
  beforeEach(async () => {
    subject = await make();
    await subject.accounts.create(account);
    await subject.users.create(user, membership);
    await subject.sessions.create(session);
  });

  it("reads the session, its user, the membership and the account's failed-webhook count in the mode shown", async () => {
    for (const [n, status] of [
      [1, 'failed'],
      [2, 'failed'],
      [3, 'enabled'],
    ] as const) {
      await subject.webhooks.create(live, webhook(n, status));
    }
    await subject.webhooks.create({ ...live, mode: 'test' }, webhook(4, 'failed'));
    const wanted = { hash: session.hash, userId: 'usr_a', accountId: 'acct_one' };
    expect(await subject.reads.read({ ...wanted, mode: 'live' })).toEqual({ session, user, membership, account, failedWebhooks: 2 });
    expect(await subject.reads.read({ ...wanted, mode: 'test' })).toEqual({ session, user, membership, account, failedWebhooks: 1 });
  });

  it('answers what exists of what was asked: no account, no membership, no session', async () => {
    expect(await subject.reads.read({ hash: session.hash, userId: 'usr_a', accountId: null, mode: 'live' })).toEqual({
      session,
      user,
      failedWebhooks: 0,
    });
    expect(await subject.reads.read({ hash: session.hash, userId: 'usr_a', accountId: 'acct_two', mode: 'live' })).toEqual({
      session,
      user,
      failedWebhooks: 0,
    });
    await subject.sessions.delete(session.hash);
    expect(await subject.reads.read({ hash: session.hash, userId: 'usr_b', accountId: 'acct_one', mode: 'live' })).toEqual({
      account,
      failedWebhooks: 0,
    });
  });
});
