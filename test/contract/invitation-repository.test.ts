import { dynamoAuditLog } from '../../functions/adapters/dynamodb/audit-log';
import { dynamoInvitationRepository } from '../../functions/adapters/dynamodb/invitation-repository';
import { dynamoUserRepository } from '../../functions/adapters/dynamodb/user-repository';
import { type AuditLog, type AuditRecord, auditRecordOf } from '../../functions/core/audit/audit';
import type { Invitation, InvitationRepository } from '../../functions/core/users/invitation';
import type { Membership, UserRepository } from '../../functions/core/users/user';
import { inMemoryAuditLog, inMemoryInvitationRepository, inMemoryUserRepository } from '../unit/fakes/people';
import { userRecord } from './support/records';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

interface Repositories {
  invitations: InvitationRepository;
  users: UserRepository;
  audit: AuditLog;
}

const implementations: Array<[string, () => Promise<Repositories>]> = [
  [
    'the in-memory fake',
    async () => {
      const users = inMemoryUserRepository();
      const audit = inMemoryAuditLog();
      return { invitations: inMemoryInvitationRepository(users, audit), users, audit };
    },
  ],
  [
    'the DynamoDB adapter on DynamoDB Local',
    async () => {
      const table = await dynamodb.freshTable();
      return { invitations: dynamoInvitationRepository(table), users: dynamoUserRepository(table), audit: dynamoAuditLog(table) };
    },
  ],
];

const at = '2026-03-01T10:00:00.000Z';
const later = (days: number) => new Date(Date.parse(at) + days * 86_400_000).toISOString();
const expires = later(7);

const invitation = (id: string, userId = 'usr_b', accountId = 'acct_one'): Invitation => ({
  id,
  account_id: accountId,
  user_id: userId,
  email: `${userId}@example.com`,
  role: 'viewer',
  invited_by: 'usr_admin',
  created_at: at,
  expires_at: expires,
  status: 'pending',
  answered_at: null,
});

let records = 0;
const record = (accountId = 'acct_one'): AuditRecord =>
  auditRecordOf(
    { accountId, action: 'user.invited', actor: { type: 'user', id: 'usr_admin' } },
    `aud_${String(++records).padStart(26, '0')}`,
    at,
  );

const membershipOf = (i: Invitation, createdAt = later(1)): Membership => ({
  account_id: i.account_id,
  user_id: i.user_id,
  role: i.role,
  created_at: createdAt,
});

describe.each(implementations)('InvitationRepository: %s', (_name, make) => {
  let repos: Repositories;
  beforeEach(async () => {
    repos = await make();
    await repos.users.create(userRecord({ id: 'usr_b', email: 'usr_b@example.com' }, at));
  });

  it('stores an invitation with its audit record; finds it by id, by account and by user', async () => {
    const first = invitation('inv_a');
    expect(await repos.invitations.create(first, record(), at)).toBe('created');
    expect(await repos.invitations.get('inv_a')).toEqual(first);
    expect(await repos.invitations.get('inv_none')).toBeUndefined();
    expect(await repos.invitations.ofAccount('acct_one')).toEqual([first]);
    expect(await repos.invitations.ofAccount('acct_two')).toEqual([]);
    expect(await repos.invitations.ofUser('usr_b')).toEqual([first]);
    expect(await repos.audit.list('acct_one', 10)).toHaveLength(1);
  });

  it('one open invitation per person and account; a member is refused; an expired or answered one is replaced', async () => {
    await repos.invitations.create(invitation('inv_a'), record(), at);
    expect(await repos.invitations.create(invitation('inv_b'), record(), later(1))).toBe('pending');
    expect(await repos.invitations.get('inv_b')).toBeUndefined();
    // Another account is another invitation.
    expect(await repos.invitations.create(invitation('inv_c', 'usr_b', 'acct_two'), record('acct_two'), at)).toBe('created');
    // Past its expiry it may be replaced; the old link then finds nothing.
    expect(await repos.invitations.create(invitation('inv_d'), record(), expires)).toBe('created');
    expect(await repos.invitations.get('inv_a')).toBeUndefined();
    expect((await repos.invitations.ofUser('usr_b')).map((i) => i.id).sort()).toEqual(['inv_c', 'inv_d']);
    expect(await repos.invitations.close(invitation('inv_d'), 'declined', later(1), record())).toBe(true);
    expect(await repos.invitations.create(invitation('inv_e'), record(), later(1))).toBe('created');

    await repos.users.addMembership({ account_id: 'acct_three', user_id: 'usr_b', role: 'admin', created_at: at });
    expect(await repos.invitations.create(invitation('inv_f', 'usr_b', 'acct_three'), record('acct_three'), at)).toBe('member');
    expect(await repos.invitations.get('inv_f')).toBeUndefined();
    expect(await repos.audit.list('acct_three', 10)).toEqual([]);
  });

  it('accept adds the membership and the audit record with it, once; expired, closed or replaced: nothing is written', async () => {
    const open = invitation('inv_a');
    await repos.invitations.create(open, record(), at);
    expect(await repos.invitations.accept(open, membershipOf(open), expires, record())).toBe('closed');
    expect(await repos.users.getMembership('usr_b', 'acct_one')).toBeUndefined();

    expect(await repos.invitations.accept(open, membershipOf(open), later(1), record())).toBe('accepted');
    expect(await repos.users.getMembership('usr_b', 'acct_one')).toEqual(membershipOf(open));
    expect(await repos.invitations.get('inv_a')).toEqual({ ...open, status: 'accepted', answered_at: later(1) });
    expect(await repos.invitations.accept(open, membershipOf(open, later(2)), later(2), record())).toBe('closed');
    expect(await repos.users.getMembership('usr_b', 'acct_one')).toEqual(membershipOf(open));
    expect(await repos.audit.list('acct_one', 10)).toHaveLength(2);
    expect(await repos.invitations.close(open, 'cancelled', later(2), record())).toBe(false);
  });

  it('two accepts at once: one membership, one "closed"', async () => {
    const open = invitation('inv_a');
    await repos.invitations.create(open, record(), at);
    const outcomes = await Promise.all([
      repos.invitations.accept(open, membershipOf(open), later(1), record()),
      repos.invitations.accept(open, membershipOf(open), later(1), record()),
    ]);
    expect(outcomes.sort()).toEqual(['accepted', 'closed']);
    expect(await repos.audit.list('acct_one', 10)).toHaveLength(2);
  });

  it('accept by someone who became a member meanwhile: "member", and the invitation stays pending', async () => {
    const open = invitation('inv_a');
    await repos.invitations.create(open, record(), at);
    await repos.users.addMembership({ ...membershipOf(open), role: 'admin' });
    expect(await repos.invitations.accept(open, membershipOf(open), later(1), record())).toBe('member');
    expect((await repos.invitations.get('inv_a'))?.status).toBe('pending');
    expect((await repos.users.getMembership('usr_b', 'acct_one'))?.role).toBe('admin');
  });

  it('decline only while open; an admin cancels an expired one too; a replaced one is not closed', async () => {
    const open = invitation('inv_a');
    await repos.invitations.create(open, record(), at);
    expect(await repos.invitations.close(open, 'declined', expires, record())).toBe(false);
    expect(await repos.invitations.close({ ...open, id: 'inv_other' }, 'cancelled', expires, record())).toBe(false);
    expect(await repos.invitations.close(open, 'cancelled', later(8), record())).toBe(true);
    expect(await repos.invitations.get('inv_a')).toEqual({ ...open, status: 'cancelled', answered_at: later(8) });
    expect(await repos.invitations.close(open, 'declined', later(1), record())).toBe(false);
    expect(await repos.invitations.accept(open, membershipOf(open), later(1), record())).toBe('closed');
    expect(await repos.users.getMembership('usr_b', 'acct_one')).toBeUndefined();
  });
});
