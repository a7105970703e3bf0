import {
  endSession,
  endSessionById,
  listSessions,
  resolveSession,
  signOutOtherSessions,
  startSession,
} from '../../../functions/core/sessions/manage-sessions';
import { from, peopleWithAdmin } from './people-fixture';

describe('sessions', () => {
  it('end 12 hours after their last use, and 7 days after they began whatever the use', async () => {
    const env = await peopleWithAdmin();
    const { token } = await startSession({ userId: env.admin.id, accountId: env.account.id, stage: 'active', origin: from }, env);
    env.clock.advance(11 * 3_600_000);
    expect(await resolveSession(token, env)).toBeDefined();
    env.clock.advance(11 * 3_600_000);
    expect(await resolveSession(token, env)).toBeDefined();
    env.clock.advance(12 * 3_600_000 + 1);
    expect(await resolveSession(token, env)).toBeUndefined();

    const busy = await startSession({ userId: env.admin.id, accountId: env.account.id, stage: 'active', origin: from }, env);
    for (let elapsed = 6; elapsed < 7 * 24; elapsed += 6) {
      env.clock.advance(6 * 3_600_000);
      expect(await resolveSession(busy.token, env)).toBeDefined();
    }
    env.clock.advance(6 * 3_600_000);
    expect(await resolveSession(busy.token, env)).toBeUndefined();
  });

  it('record their use at most once a minute', async () => {
    const env = await peopleWithAdmin();
    const { token, session } = await startSession({ userId: env.admin.id, accountId: null, stage: 'active', origin: from }, env);
    env.clock.advance(30_000);
    expect((await resolveSession(token, env))?.last_seen_at).toBe(session.last_seen_at);
    env.clock.advance(30_000);
    expect((await resolveSession(token, env))?.last_seen_at).toBe(new Date(env.clock.now()).toISOString());
  });

  it('refuse values that are not tokens without a lookup, and ended sessions', async () => {
    const env = await peopleWithAdmin();
    expect(await resolveSession('not-a-token', env)).toBeUndefined();
    expect(await resolveSession(undefined, env)).toBeUndefined();
    const { token, session } = await startSession({ userId: env.admin.id, accountId: null, stage: 'active', origin: from }, env);
    await endSession(session, env);
    expect(await resolveSession(token, env)).toBeUndefined();
  });

  it('"sign out everywhere else" ends every other session of the user, and only theirs', async () => {
    const env = await peopleWithAdmin();
    const start = (userId: string) => startSession({ userId, accountId: env.account.id, stage: 'active', origin: from }, env);
    const here = await start(env.admin.id);
    const laptop = await start(env.admin.id);
    const phone = await start(env.admin.id);
    const someoneElse = await start('usr_someone_else');
    expect((await listSessions(here.session, env)).map((s) => [s.id, s.current])).toEqual(
      expect.arrayContaining([
        [here.session.id, true],
        [laptop.session.id, false],
        [phone.session.id, false],
      ]),
    );
    expect(await endSessionById(here.session, someoneElse.session.id, env)).toBe(false);
    expect(await endSessionById(here.session, laptop.session.id, env)).toBe(true);
    expect(await resolveSession(laptop.token, env)).toBeUndefined();
    expect(await signOutOtherSessions(here.session, from, env)).toBe(1);
    expect(await resolveSession(phone.token, env)).toBeUndefined();
    expect(await resolveSession(here.token, env)).toBeDefined();
    expect(await resolveSession(someoneElse.token, env)).toBeDefined();
    expect(env.audit.records.at(-1)).toMatchObject({ action: 'user.sessions_revoked', details: { sessions_ended: 1 } });
  });
});
