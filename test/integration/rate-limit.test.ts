import { dynamoTokenBucketStore } from '../../functions/adapters/dynamodb/rate-limit-store';
import { systemClock } from '../../functions/core/clock';
import { createRateLimiter } from '../../functions/core/rate-limiter';
import { as } from './support/http';
import { newAccount, runtimeTable } from './support/runtime';

/**
 * The limit lives in the table, so every function instance counts against the same bucket:
 * two limiters (two instances) on the runtime's own table, on DynamoDB Local.
 */
describe('the shared rate limit', () => {
  it('two limiters on one table together admit no more than one bucket, at about one write per batch', async () => {
    const table = await runtimeTable();
    const settings = { perSecond: 1, burst: 40 };
    const stores = [dynamoTokenBucketStore(table, settings), dynamoTokenBucketStore(table, settings)];
    const limiters = stores.map((store) => createRateLimiter(settings, systemClock, store));
    const credential = `key_it_${Date.now()}_${Math.random().toString(36).slice(2)}`;
    let allowed = 0;
    for (let i = 0; i < 120; i += 1) if ((await (limiters[i % 2] as (typeof limiters)[number])(credential)).allowed) allowed += 1;
    // 40 at once, plus what one token a second brings back while the loop runs.
    const elapsedBound = 40 + 10;
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(allowed).toBeLessThanOrEqual(elapsedBound);
    const writes = stores.reduce((sum, store) => sum + store.writes(), 0);
    expect(writes).toBeLessThan(120);
  });

  it('answers RateLimit-Policy and RateLimit on every counted answer', async () => {
    const { live } = await newAccount();
    const client = as(live.key);
    for (const answer of [
      await client.get('/projects'),
      await client.get('/projects/proj_missing'),
      await client.get('/projects?nope=1'),
    ]) {
      expect(answer.headers.get('ratelimit-policy')).toBe('"credential";q=100;w=5');
      expect(answer.headers.get('ratelimit')).toMatch(/^"credential";r=\d+;t=\d+$/);
    }
  });
});
