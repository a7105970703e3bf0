import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, LogGroupLogDestination, type ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { Repository, RepositoryEncryption, TagStatus } from 'aws-cdk-lib/aws-ecr';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { corsSettings } from '../functions/http/cors';
import { AlarmTopic } from './operations/alarm-topic';
import { CoreAlarms } from './operations/core-alarms';
import { ServiceDashboard } from './operations/service-dashboard';
import { ArtifactStore } from './stateful/artifact-store';
import { DeliveryQueues, deadLetterQueue, failureQueue } from './stateful/delivery-queues';
import { ServiceTable } from './constructs/service-table';

export interface CoreStackProps extends StackProps {
  serviceName: string;
  /** Default-route throttling of the API's stage. */
  throttle?: ThrottleSettings;
  accessLogRetention?: RetentionDays;
  /** Subscribed to the alarm topic when given (context `alarmEmail`). */
  alarmEmail?: string;
}

const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    httpMethod: '$context.httpMethod',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    integrationErrorMessage: '$context.integrationErrorMessage',
  }),
);

/**
 * What outlives any deploy of the code: the table, the artifact buckets, the keys, the image
 * repository, the queues that hold messages, the HTTP API itself (its URL is what callers know)
 * and the alarm topic. Termination protection is on and the data is retained.
 *
 * This stack keeps the name of the single stack of earlier releases (context `stackName`) and the
 * construct ids its resources had there, so their logical ids are unchanged: upgrading an
 * existing deployment leaves them in place. Routes, functions and workers live in the domain
 * stacks (`lib/domain-stack.ts`), which reference these.
 */
export class CoreStack extends Stack {
  readonly serviceName: string;
  readonly table: ServiceTable;
  readonly artifactStore: ArtifactStore;
  readonly imageRepository: Repository;
  readonly deliveryQueues: DeliveryQueues;
  readonly securityFailures: Queue;
  readonly testFailures: Queue;
  readonly reviewFailures: Queue;
  readonly jobFailureDeadLetters: Queue;
  readonly executionFailures: Queue;
  readonly api: HttpApi;
  /**
   * The log group every API function writes to: one line per request (account, method, path,
   * status, duration, credential hint, request id), which the dashboard's Requests page queries.
   */
  readonly apiLogs: LogGroup;
  readonly alarms: AlarmTopic;

  constructor(scope: Construct, id: string, props: CoreStackProps) {
    super(scope, id, { terminationProtection: true, ...props });
    this.serviceName = props.serviceName;

    this.table = new ServiceTable(this, 'Table');
    // The construct ids below are those of the single-stack release: they fix the logical ids.
    this.artifactStore = new ArtifactStore(this, 'Workflows');
    this.imageRepository = new Repository(new Construct(this, 'Images'), 'Repository', {
      imageScanOnPush: true,
      encryption: RepositoryEncryption.KMS,
      lifecycleRules: [
        { description: 'Expire untagged images after 7 days', tagStatus: TagStatus.UNTAGGED, maxImageAge: Duration.days(7) },
        { description: 'Keep the last 100 images', tagStatus: TagStatus.ANY, maxImageCount: 100 },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.deliveryQueues = new DeliveryQueues(this, 'Webhooks');
    // What the job safety net's function failed on five times: set aside (and alarmed) rather than
    // received again every 3 minutes for 14 days while its job stays under way.
    this.jobFailureDeadLetters = deadLetterQueue(this, 'JobFailureDeadLetters', 'the security, tests and reviews failure queues');
    // Read by the job safety net's function (30 s): six times that as visibility timeout.
    const jobFailures = {
      visibilityTimeout: Duration.minutes(3),
      deadLetterQueue: { queue: this.jobFailureDeadLetters, maxReceiveCount: 5 },
    };
    this.securityFailures = failureQueue(this, 'Security', jobFailures);
    this.testFailures = failureQueue(this, 'Tests', jobFailures);
    this.reviewFailures = failureQueue(this, 'Reviews', jobFailures);
    this.executionFailures = deadLetterQueue(
      this,
      'ExecutionSafetyNet',
      "the EventBridge rule's target and its function's asynchronous invocations (events it could not take, or failed on, after their retries)",
    );
    // The rule that writes here is in another stack, where CDK cannot add this to an imported queue.
    this.executionFailures.addToResourcePolicy(
      new PolicyStatement({
        sid: 'EventBridgeDeadLetters',
        principals: [new ServicePrincipal('events.amazonaws.com')],
        actions: ['sqs:SendMessage'],
        resources: [this.executionFailures.queueArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': this.formatArn({ service: 'events', resource: 'rule', resourceName: '*' }) },
        },
      }),
    );

    this.api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: `${props.serviceName} HTTP API`,
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [...corsSettings.allowOrigins],
        allowMethods: corsSettings.allowMethods.map((method) => CorsHttpMethod[method]),
        allowHeaders: [...corsSettings.allowHeaders],
        exposeHeaders: [...corsSettings.exposeHeaders],
        maxAge: Duration.seconds(corsSettings.maxAgeSeconds),
      },
    });
    this.apiLogs = new LogGroup(this, 'ApiLogs', { retention: RetentionDays.ONE_MONTH });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH });
    this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 1000, burstLimit: 2000 },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });
    // Acknowledged on the API, so it covers every route under it, the $default route too.
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Authentication is the service's own credential resolver, run in every function: API keys, personal access tokens and OAuth tokens, stored hashed in DynamoDB. The OpenAPI document and the fallback are public by design.",
    });

    this.alarms = new AlarmTopic(this, 'Alarms', { email: props.alarmEmail });
    new CoreAlarms(this, 'ServiceAlarms', this);
    new ServiceDashboard(this, 'Dashboard', this);

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}/v1`, description: 'Base URL of the API, version included' });
    // The same API serves the authorization server and the dashboard (their functions live in the
    // OAuth and Dashboard stacks): one origin, so the issuer is the API's origin.
    new CfnOutput(this, 'AuthUrl', {
      value: this.api.apiEndpoint,
      description:
        'OAuth 2.0 authorization server: its issuer, /oauth/authorize, /oauth/token, /oauth/revoke and /.well-known/oauth-authorization-server',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `${this.api.apiEndpoint}/dashboard`,
      description: 'The dashboard; sign in at /dashboard/sign-in',
    });
    new CfnOutput(this, 'ArtifactBucketName', {
      value: this.artifactStore.artifacts.bucketName,
      description: 'Workflow artifacts: plans, diffs, reports, provenance, bundles',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'Every alarm of the service notifies it' });
  }
}
