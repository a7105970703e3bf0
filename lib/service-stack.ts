import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, LogGroupLogDestination, type ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { corsSettings } from '../functions/http/cors';
import { fallbackHandler, routes } from '../functions/routes/index';
import { ServiceFunction } from './constructs/service-function';
import { ServiceTable } from './constructs/service-table';
import { WebhookDelivery } from './constructs/webhook-delivery';
import { aiSettingsFromContext } from './constructs/ai-settings';
import { WorkflowOrchestration } from './constructs/workflow-orchestration';
import { DeploymentOrchestration } from './constructs/deployment-orchestration';
import { ExecutionSafetyNet } from './constructs/execution-safety-net';
import { SecurityScanning } from './constructs/security-scanning';
import { ImageBuilds } from './constructs/image-builds';
import { TestRunning } from './constructs/test-running';

export interface ServiceStackProps extends StackProps {
  /** Default-route throttling of the API's stage. */
  throttle?: ThrottleSettings;
  accessLogRetention?: RetentionDays;
  serviceName?: string;
  /**
   * From address of the e-mail sent when a webhook fails. Unless given here, the context value
   * `notificationSender`: the deployer runs `cdk deploy -c notificationSender=webhooks@their-domain`
   * and verifies that address as an SES identity in the stack's account and region (the
   * dispatcher may send from that identity only). Defaults to `defaultNotificationSender`.
   */
  notificationSender?: string;
}

export const defaultNotificationSender = 'webhooks@example.com';

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

const constructIdOf = (operationId: string): string => operationId.charAt(0).toUpperCase() + operationId.slice(1);

/**
 * The whole service: one table, one HTTP API, one function per route of the route table, and the
 * webhook workers (fan-out from the table's stream, dispatcher on the delivery queue).
 */
export class ServiceStack extends Stack {
  readonly table: ServiceTable;
  readonly api: HttpApi;
  readonly webhooks: WebhookDelivery;
  readonly workflows: WorkflowOrchestration;
  readonly deployments: DeploymentOrchestration;
  readonly security: SecurityScanning;
  readonly images: ImageBuilds;
  readonly tests: TestRunning;
  /** From address of the service's e-mail (SES identity): webhook failures, password resets. */
  readonly notificationSender: string;

  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);
    const serviceName = props.serviceName ?? 'project-automation-service';

    this.table = new ServiceTable(this, 'Table');

    const notificationSender: string =
      props.notificationSender ?? this.node.tryGetContext('notificationSender') ?? defaultNotificationSender;
    this.notificationSender = notificationSender;
    this.webhooks = new WebhookDelivery(this, 'Webhooks', { table: this.table, serviceName, notificationSender });

    const ai = aiSettingsFromContext(this);
    const repositoryTokenSecret: unknown = this.node.tryGetContext('repositoryTokenSecret');
    this.workflows = new WorkflowOrchestration(this, 'Workflows', {
      table: this.table,
      serviceName,
      ai,
      repositoryTokenSecret:
        typeof repositoryTokenSecret === 'string' && repositoryTokenSecret.length > 0 ? repositoryTokenSecret : undefined,
    });
    // Container images: the package stage builds one when the packaged tree has a Dockerfile.
    this.images = new ImageBuilds(this, 'Images', { artifacts: this.workflows.artifacts, artifactKey: this.workflows.artifactKey });
    this.images.bindStarter(this.workflows.functions.package);

    const contextList = (name: string): string[] => {
      const value: unknown = this.node.tryGetContext(name);
      return typeof value === 'string'
        ? value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : [];
    };
    this.deployments = new DeploymentOrchestration(this, 'Deployments', {
      table: this.table,
      serviceName,
      lambdaTargets: contextList('deployLambdaTargets'),
      codeBuckets: contextList('deployCodeBuckets'),
    });
    // auto_deploy: the package stage starts a deployment of the change it packaged.
    this.deployments.bindStarter(this.workflows.functions.package);
    const osvApiUrl: unknown = this.node.tryGetContext('osvApiUrl');
    this.security = new SecurityScanning(this, 'Security', {
      table: this.table,
      serviceName,
      artifacts: this.workflows.artifacts,
      artifactKey: this.workflows.artifactKey,
      ai,
      repositoryTokenSecret:
        typeof repositoryTokenSecret === 'string' && repositoryTokenSecret.length > 0 ? repositoryTokenSecret : undefined,
      osvApiUrl: typeof osvApiUrl === 'string' && osvApiUrl.length > 0 ? osvApiUrl : 'https://api.osv.dev',
    });
    this.tests = new TestRunning(this, 'Tests', {
      table: this.table,
      serviceName,
      artifacts: this.workflows.artifacts,
      artifactKey: this.workflows.artifactKey,
      ai,
      repositoryTokenSecret:
        typeof repositoryTokenSecret === 'string' && repositoryTokenSecret.length > 0 ? repositoryTokenSecret : undefined,
    });
    new ExecutionSafetyNet(this, 'ExecutionSafetyNet', {
      table: this.table,
      serviceName,
      stateMachines: [this.workflows.stateMachine, this.deployments.stateMachine],
      jobFailureQueues: [this.security.failures, this.tests.failures],
    });

    const fallback = new ServiceFunction(this, 'Fallback', {
      handler: fallbackHandler,
      description: '$default: 404 or 405 in the service envelope',
      serviceName,
    });

    this.api = new HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: `${serviceName} HTTP API`,
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
      corsPreflight: {
        allowOrigins: [...corsSettings.allowOrigins],
        allowMethods: corsSettings.allowMethods.map((method) => CorsHttpMethod[method]),
        allowHeaders: [...corsSettings.allowHeaders],
        exposeHeaders: [...corsSettings.exposeHeaders],
        maxAge: Duration.seconds(corsSettings.maxAgeSeconds),
      },
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.accessLogRetention ?? RetentionDays.ONE_MONTH });
    this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 1000, burstLimit: 2000 },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });

    for (const route of routes) {
      const id = constructIdOf(route.operationId);
      const routeFunction = new ServiceFunction(this, id, {
        handler: route.handler,
        description: `${route.method} ${route.path}`,
        serviceName,
        timeout: route.timeoutSeconds === undefined ? undefined : Duration.seconds(route.timeoutSeconds),
      });
      if (route.tableAccess !== 'none') routeFunction.bindTable(this.table, route.tableAccess);
      if (route.sendsDeliveries) routeFunction.bindDeliveryQueue(this.webhooks.queue);
      if (route.workflowExecutions === 'start') this.workflows.bindStarter(routeFunction, ai);
      if (route.workflowExecutions === 'stop') this.workflows.bindStopper(routeFunction);
      if (route.deploymentExecutions) this.deployments.bindStarter(routeFunction);
      if (route.startsSecurityJobs) this.security.bindStarter(routeFunction);
      if (route.startsTestJobs) this.tests.bindStarter(routeFunction);
      if (route.sendsEmail) routeFunction.bindMailer(notificationSender);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, routeFunction.function),
      });
    }

    // Acknowledged on the API, so it covers every route under it, the $default route too.
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Authentication is the service's own credential resolver, run in every function: API keys, personal access tokens and OAuth tokens, stored hashed in DynamoDB. The OpenAPI document and the fallback are public by design.",
    });

    new CfnOutput(this, 'ApiUrl', { value: `${this.api.apiEndpoint}/v1`, description: 'Base URL of the API, version included' });
    new CfnOutput(this, 'AuthUrl', {
      value: this.api.apiEndpoint,
      description:
        'OAuth 2.0 authorization server: its issuer, /oauth/authorize, /oauth/token, /oauth/revoke and /.well-known/oauth-authorization-server',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `${this.api.apiEndpoint}/dashboard`,
      description: 'The dashboard; sign in at /dashboard/sign-in',
    });
    new CfnOutput(this, 'WorkflowStateMachineArn', {
      value: this.workflows.stateMachine.stateMachineArn,
      description: 'Runs the workflow stages',
    });
    new CfnOutput(this, 'DeploymentStateMachineArn', {
      value: this.deployments.stateMachine.stateMachineArn,
      description: 'Runs deployments and rollbacks',
    });
    new CfnOutput(this, 'ArtifactBucketName', {
      value: this.workflows.artifacts.bucketName,
      description: 'Workflow artifacts: plans, diffs, reports, provenance, bundles',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
