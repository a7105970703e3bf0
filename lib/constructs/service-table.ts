import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableSchema } from '../../functions/adapters/dynamodb/table-schema';

const stringAttribute = (name: string): Attribute => ({ name, type: AttributeType.STRING });

/** The service's single table, built from the same description the local runtime uses. */
export class ServiceTable extends TableV2 {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      partitionKey: stringAttribute(tableSchema.partitionKey),
      sortKey: stringAttribute(tableSchema.sortKey),
      globalSecondaryIndexes: tableSchema.globalIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: stringAttribute(index.partitionKey),
        sortKey: stringAttribute(index.sortKey),
        projectionType: ProjectionType.ALL,
      })),
      timeToLiveAttribute: tableSchema.timeToLiveAttribute,
      dynamoStream: StreamViewType[tableSchema.streamView],
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
