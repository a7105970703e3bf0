import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoSignInThrottleStore } from '../../functions/adapters/dynamodb/sign-in-throttle-store';
import { signInThrottle } from '../../functions/adapters/dynamodb/table-keys';
import {
  attemptFailed,
  attemptSucceeded,
  reserveAttempt,
  type SignInThrottleStore,
  throttleRules,
  throttleWindowMs,
} from '../../functions/core/users/sign-in-throttle';
import { SignInRefused, signIn } from '../../functions/core/users/sign-in';
import { inMemoryThrottleStore } from '../unit/fakes/people';
import { peopleWithAdmin } from '../unit/people/people-fixture';
import { useDynamoDbLocal } from './support/table';

const dynamodb = useDynamoDbLocal();

const implementations: Array<[string, () => Promise<SignInThrottleStore>]> = [
  ['the in-memory fake', async () => inMemoryThrottleStore()],
  ['the DynamoDB adapter on DynamoDB Local', async () => dynamoSignInThrottleStore(await dynamodb.freshTable())],
];

const now = Date.parse('2026-03-01T10:00:00.000Z');
const email = { key: 'email:contract', rule: throttleRules.email };
const address = { key: 'ip:198.51.100.20', rule: throttleRules.address };
const counter = (failures: number, at: number, revision: string) => ({ failures, last_failure_at: at, revision });

describe.each(implementations)('SignInThrottleStore: %s', (_name, make) => {
  let store: SignInThrottleStore;
  beforeEach(async () => {
    store = await make();
  });

  it('writes a counter only while it is still at the revision read, all of a write or none', async () => {
    expect(await store.read([email.key])).toEqual(new Map());
    expect(await store.writeCounters([{ key: email.key, expected: undefined, next: counter(1, now, 'r1') }], throttleWindowMs)).toBe(true);
    // A second writer that read "none" lost the race.
    expect(await store.writeCounters([{ key: email.key, expected: undefined, next: counter(1, now, 'r2') }], throttleWindowMs)).toBe(false);
    expect(await store.writeCounters([{ key: email.key, expected: 'r0', next: counter(2, now, 'r2') }], throttleWindowMs)).toBe(false);
    expect(await store.read([email.key, address.key])).toEqual(new Map([[email.key, counter(1, now, 'r1')]]));

    // Two keys at once: one stale revision and neither is written.
    const both = (expectedEmail: string | undefined) => [
      { key: email.key, expected: expectedEmail, next: counter(2, now + 1, 'r3') },
      { key: address.key, expected: undefined, next: counter(1, now + 1, 'r4') },
    ];
    expect(await store.writeCounters(both('stale'), throttleWindowMs)).toBe(false);
    expect(await store.read([email.key, address.key])).toEqual(new Map([[email.key, counter(1, now, 'r1')]]));
    expect(await store.writeCounters(both('r1'), throttleWindowMs)).toBe(true);
    expect(await store.read([email.key, address.key])).toEqual(
      new Map([
        [email.key, counter(2, now + 1, 'r3')],
        [address.key, counter(1, now + 1, 'r4')],
      ]),
    );

    // A delete is conditional too; clear is not.
    expect(await store.writeCounters([{ key: email.key, expected: 'r1', next: undefined }], throttleWindowMs)).toBe(false);
    expect(await store.writeCounters([{ key: email.key, expected: 'r3', next: undefined }], throttleWindowMs)).toBe(true);
    await store.clear(address.key);
    await store.clear('never-written');
    expect(await store.read([email.key, address.key])).toEqual(new Map());
  });

  it('reserves exactly as many attempts for a burst at once as for the same attempts in a row', async () => {
    const inARow: boolean[] = [];
    for (let i = 0; i < 10; i += 1) inARow.push((await reserveAttempt([{ ...email, key: 'email:row' }, address], store, now)).reserved);
    expect(inARow.filter(Boolean)).toHaveLength(5);

    const atOnce = await Promise.all(
      Array.from({ length: 40 }, () => reserveAttempt([email, { ...address, key: 'ip:burst' }], store, now)),
    );
    expect(atOnce.filter((r) => r.reserved)).toHaveLength(5);
    expect(atOnce.filter((r) => !r.reserved)).toEqual(Array.from({ length: 35 }, () => ({ reserved: false, retryAfterSeconds: 2 })));
    expect((await store.read([email.key, 'ip:burst'])).get(email.key)).toMatchObject({ failures: 5, last_failure_at: now });
    expect((await store.read(['ip:burst'])).get('ip:burst')).toMatchObject({ failures: 5 });
  });

  it('moves the wait to the answer on failure; on success clears what it proved and gives the attempt back elsewhere', async () => {
    for (let i = 0; i < 4; i += 1) {
      const attempt = await reserveAttempt([email, address], store, now);
      if (!attempt.reserved) throw new Error('expected a free attempt');
      await attemptFailed(attempt.reservation, store, now + 700);
    }
    expect((await store.read([email.key])).get(email.key)).toMatchObject({ failures: 4, last_failure_at: now + 700 });

    const fifth = await reserveAttempt([email, address], store, now + 1_000);
    if (!fifth.reserved) throw new Error('expected the fifth attempt to be free');
    // Still being checked: it counts, and the sixth must wait.
    expect(await reserveAttempt([email, address], store, now + 1_000)).toEqual({ reserved: false, retryAfterSeconds: 2 });
    await attemptSucceeded(fifth.reservation, [email.key], store);
    expect((await store.read([email.key])).get(email.key)).toBeUndefined();
    // Nothing else touched the address: it is back exactly as it was.
    expect((await store.read([address.key])).get(address.key)).toMatchObject({ failures: 4, last_failure_at: now + 700 });
  });

  it('starts again from one when the window of the last failure has ended', async () => {
    await store.writeCounters([{ key: email.key, expected: undefined, next: counter(14, now, 'old') }], throttleWindowMs);
    expect(await reserveAttempt([email], store, now + 60_000)).toMatchObject({ reserved: false });
    const later = await reserveAttempt([email], store, now + throttleWindowMs);
    expect(later.reserved).toBe(true);
    expect((await store.read([email.key])).get(email.key)).toMatchObject({ failures: 1, last_failure_at: now + throttleWindowMs });
  });
});

describe('sign-in on the DynamoDB throttle store', () => {
  it('checks no more passwords for 40 wrong ones at once than for 40 in a row', async () => {
    const env = await peopleWithAdmin();
    const deps = { ...env, throttle: dynamoSignInThrottleStore(await dynamodb.freshTable()) };
    const attempt = (i: number, ip: string) =>
      signIn({ email: 'alice@acme.test', password: `wrong password ${i}`, origin: { ip, userAgent: null } }, deps).then(
        () => 'signed_in',
        (error: unknown) => (error instanceof SignInRefused ? error.reason : Promise.reject(error)),
      );
    const inARow: string[] = [];
    for (let i = 0; i < 40; i += 1) inARow.push(await attempt(i, '203.0.113.1'));
    expect(inARow.filter((r) => r === 'invalid_credentials')).toHaveLength(5);

    env.clock.advance(throttleWindowMs);
    const atOnce = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(i, '203.0.113.2')));
    expect(atOnce.filter((r) => r === 'invalid_credentials')).toHaveLength(5);
    expect(atOnce.filter((r) => r === 'throttled')).toHaveLength(35);
  });

  it('reads a counter written before counters had a revision, and counts on from it', async () => {
    const table = await dynamodb.freshTable();
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...signInThrottle(email.key), entity: 'sign_in_throttle', key: email.key, failures: 4, last_failure_at: now, ttl: 0 },
      }),
    );
    const store = dynamoSignInThrottleStore(table);
    expect((await reserveAttempt([email], store, now + 1)).reserved).toBe(true);
    expect(await reserveAttempt([email], store, now + 1)).toEqual({ reserved: false, retryAfterSeconds: 2 });
    expect((await store.read([email.key])).get(email.key)).toMatchObject({ failures: 5, last_failure_at: now + 1 });
  });
});
