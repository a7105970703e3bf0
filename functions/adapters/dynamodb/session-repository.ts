import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Session, SessionRepository } from '../../core/sessions/session';
import type { TableRef } from './client';
import { entityTypes, ttlOf, withoutKeys } from './keys';
import { allInIndexPartition } from './query-all';
import * as keys from './table-keys';
import { isConditionFailure } from './transactions';

/** Sessions: one item each, deleted by TTL after their absolute end (readers check expiry themselves). */
export const dynamoSessionRepository = ({ client, tableName }: TableRef): SessionRepository => ({
  async create(session) {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.session(session.hash),
          ...keys.sessionIndexes(session.user_id, session.id),
          entity: entityTypes.session,
          ttl: ttlOf(session.expires_at),
          ...session,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async findByHash(hash) {
    // Strongly consistent: a session ended a moment ago must not still open pages.
    const result = await client.send(new GetCommand({ TableName: tableName, Key: keys.session(hash), ConsistentRead: true }));
    return result.Item ? withoutKeys<Session>(result.Item) : undefined;
  },

  async update(hash, changes) {
    const entries: [string, unknown][] = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (changes.expires_at) entries.push(['ttl', ttlOf(changes.expires_at)]);
    const names = Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name]));
    const values = Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value]));
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.session(hash),
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async delete(hash) {
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.session(hash) }));
  },

  async ofUser(userId) {
    const items = await allInIndexPartition({ client, tableName }, 'gsi1', keys.sessionsOfUser(userId));
    return items.map((item) => withoutKeys<Session>(item));
  },
});
