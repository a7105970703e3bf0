/**
 * The single table, described once: the CDK stack and the local runtime both build the table from
 * this, so the two cannot drift.
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds; DynamoDB deletes the item some time after. Readers still check expiry. */
  timeToLiveAttribute: 'ttl',
  /** The event outbox reads the stream. */
  streamView: 'NEW_AND_OLD_IMAGES',
} as const;

export type GlobalIndexName = (typeof tableSchema.globalIndexes)[number]['indexName'];
