import { CfnOutput, Fn } from 'aws-cdk-lib';
import { HttpApi, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { type ITableV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IRepository, Repository } from 'aws-cdk-lib/aws-ecr';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { type ILogGroup, LogGroup } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { type IQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { CoreStack } from './core-stack';

/**
 * The core stack's exports, by name: the one interface between it and the domain stacks. Named
 * explicitly (not CDK's generated cross-stack references) so that the set only changes when this
 * list does, and so that a domain stack can be deployed, changed or removed without touching the
 * core stack.
 */
const exported = (core: CoreStack) =>
  ({
    TableName: core.table.tableName,
    TableArn: core.table.tableArn,
    TableStreamArn: core.table.tableStreamArn as string,
    ArtifactBucketName: core.artifactStore.artifacts.bucketName,
    ArtifactBucketArn: core.artifactStore.artifacts.bucketArn,
    ArtifactKeyArn: core.artifactStore.artifactKey.keyArn,
    SigningKeyArn: core.artifactStore.signingKey.keyArn,
    ImageRepositoryName: core.imageRepository.repositoryName,
    ImageRepositoryArn: core.imageRepository.repositoryArn,
    DeliveryQueueArn: core.deliveryQueues.queue.queueArn,
    DeliveryQueueUrl: core.deliveryQueues.queue.queueUrl,
    DeliveryDeadLettersArn: core.deliveryQueues.deadLetterQueue.queueArn,
    FanOutFailuresArn: core.deliveryQueues.fanOutFailures.queueArn,
    SecurityFailuresArn: core.securityFailures.queueArn,
    TestFailuresArn: core.testFailures.queueArn,
    ReviewFailuresArn: core.reviewFailures.queueArn,
    ExecutionFailuresArn: core.executionFailures.queueArn,
    ApiId: core.api.apiId,
    ApiEndpoint: core.api.apiEndpoint,
    AlarmTopicArn: core.alarms.topic.topicArn,
    ApiLogGroupName: core.apiLogs.logGroupName,
  }) satisfies Record<string, string>;

export type CoreExportName = keyof ReturnType<typeof exported>;

export const coreExportName = (coreStackName: string, name: CoreExportName): string => `${coreStackName}:${name}`;

/** Declares the exports on the core stack. */
export const exportCoreReferences = (core: CoreStack): void => {
  const scope = new Construct(core, 'Exports');
  for (const [name, value] of Object.entries(exported(core))) {
    new CfnOutput(scope, name, { value, exportName: coreExportName(core.stackName, name as CoreExportName) });
  }
};

/** The core stack's resources as one domain stack sees them: imported by export name. */
export class CoreReferences extends Construct {
  readonly table: ITableV2;
  readonly artifacts: IBucket;
  readonly artifactKey: IKey;
  readonly signingKey: IKey;
  readonly imageRepository: IRepository;
  readonly deliveryQueue: IQueue;
  readonly deliveryDeadLetters: IQueue;
  readonly fanOutFailures: IQueue;
  readonly securityFailures: IQueue;
  readonly testFailures: IQueue;
  readonly reviewFailures: IQueue;
  readonly executionFailures: IQueue;
  readonly api: IHttpApi;
  readonly alarmTopic: ITopic;
  readonly apiLogs: ILogGroup;

  constructor(scope: Construct, id: string, coreStackName: string) {
    super(scope, id);
    const value = (name: CoreExportName): string => Fn.importValue(coreExportName(coreStackName, name));
    const queue = (queueId: string, name: CoreExportName): IQueue => Queue.fromQueueArn(this, queueId, value(name));

    const table = TableV2.fromTableAttributes(this, 'Table', { tableArn: value('TableArn'), tableStreamArn: value('TableStreamArn') });
    // The import takes an ARN or a name, not both; the name would be split out of the ARN. The
    // exported name reads plainer in TABLE_NAME.
    Object.defineProperty(table, 'tableName', { value: value('TableName') });
    this.table = table;
    this.artifacts = Bucket.fromBucketAttributes(this, 'Artifacts', {
      bucketName: value('ArtifactBucketName'),
      bucketArn: value('ArtifactBucketArn'),
    });
    this.artifactKey = Key.fromKeyArn(this, 'ArtifactKey', value('ArtifactKeyArn'));
    this.signingKey = Key.fromKeyArn(this, 'SigningKey', value('SigningKeyArn'));
    this.imageRepository = Repository.fromRepositoryAttributes(this, 'ImageRepository', {
      repositoryName: value('ImageRepositoryName'),
      repositoryArn: value('ImageRepositoryArn'),
    });
    this.deliveryQueue = Queue.fromQueueAttributes(this, 'DeliveryQueue', {
      queueArn: value('DeliveryQueueArn'),
      queueUrl: value('DeliveryQueueUrl'),
    });
    this.deliveryDeadLetters = queue('DeliveryDeadLetters', 'DeliveryDeadLettersArn');
    this.fanOutFailures = queue('FanOutFailures', 'FanOutFailuresArn');
    this.securityFailures = queue('SecurityFailures', 'SecurityFailuresArn');
    this.testFailures = queue('TestFailures', 'TestFailuresArn');
    this.reviewFailures = queue('ReviewFailures', 'ReviewFailuresArn');
    this.executionFailures = queue('ExecutionFailures', 'ExecutionFailuresArn');
    this.api = HttpApi.fromHttpApiAttributes(this, 'Api', { httpApiId: value('ApiId'), apiEndpoint: value('ApiEndpoint') });
    this.alarmTopic = Topic.fromTopicArn(this, 'AlarmTopic', value('AlarmTopicArn'));
    this.apiLogs = LogGroup.fromLogGroupName(this, 'ApiLogs', value('ApiLogGroupName'));
  }
}
