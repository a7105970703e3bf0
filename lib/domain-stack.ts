import { Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { kindOf, type TableRoute } from '../functions/routes/route';
import { CoreReferences } from './core-references';
import { FunctionRole, ServiceFunction } from './constructs/service-function';

export interface DomainStackProps extends StackProps {
  /** The core stack's name: its exports are named after it. */
  coreStackName: string;
  serviceName: string;
  /** `Projects`, `Webhooks`…: a route's `domain`, else its tag. */
  domain: string;
  /** From address of the service's e-mail (an SES identity), for routes that send some. */
  notificationSender: string;
}

/** The domain of a route: the stack its function lives in. Pages and OAuth endpoints always name theirs. */
export const domainOf = (route: TableRoute): string => ('tag' in route ? (route.domain ?? route.tag) : route.domain);

/** `ProjectAutomationService-Webhooks`: the core stack's name and the domain. */
export const domainStackName = (coreStackName: string, domain: string): string => `${coreStackName}-${domain.replace(/[^A-Za-z0-9]/g, '')}`;

const constructIdOf = (operationId: string): string => operationId.charAt(0).toUpperCase() + operationId.slice(1);

/** What a route's function may do besides its own logs: the flags of its route table row. */
const permissionsOf = (route: TableRoute) => ({
  table: route.tableAccess,
  deliveries: route.sendsDeliveries ?? false,
  workflows: route.workflowExecutions ?? null,
  deployments: route.deploymentExecutions ?? false,
  securityJobs: route.startsSecurityJobs ?? false,
  testJobs: route.startsTestJobs ?? false,
  reviewJobs: route.startsReviewJobs ?? false,
  email: route.sendsEmail ?? false,
  requestLog: route.readsRequestLog ?? false,
  findingPatches: route.readsFindingPatches ?? false,
});

/** `WriteDeliveriesRole`, `ReadRole`, `NoneRole`…: a readable id per permission set. */
const roleIdOf = (route: TableRoute): string => {
  const p = permissionsOf(route);
  const parts = [
    p.table.charAt(0).toUpperCase() + p.table.slice(1),
    p.deliveries ? 'Deliveries' : '',
    p.workflows === 'start' ? 'StartsWorkflows' : p.workflows === 'stop' ? 'StopsWorkflows' : '',
    p.deployments ? 'Deployments' : '',
    p.securityJobs ? 'SecurityJobs' : '',
    p.testJobs ? 'TestJobs' : '',
    p.reviewJobs ? 'ReviewJobs' : '',
    p.email ? 'Email' : '',
    p.requestLog ? 'RequestLog' : '',
    p.findingPatches ? 'FindingPatches' : '',
  ];
  return `${parts.join('')}Role`;
};

/**
 * One domain of the service (`Projects`, `Webhooks`, `Workflows`…): the functions of its routes
 * with their API routes, and the workers the domain owns. Routes of the same permissions share
 * one role (least privilege holds: they may do exactly the same), so a route costs a function, a
 * log group, an integration, a route, an invoke permission and an alarm. The core stack's
 * resources come in by export name (`CoreReferences`).
 */
export class DomainStack extends Stack {
  readonly domain: string;
  readonly serviceName: string;
  readonly notificationSender: string;
  readonly core: CoreReferences;
  private readonly roles = new Map<string, FunctionRole>();
  private readonly routes: Construct;

  constructor(scope: Construct, id: string, props: DomainStackProps) {
    super(scope, id, props);
    this.domain = props.domain;
    this.serviceName = props.serviceName;
    this.notificationSender = props.notificationSender;
    this.core = new CoreReferences(this, 'Core', props.coreStackName);
    this.routes = new Construct(this, 'Routes');
    Validations.of(this.routes).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Authentication is the service's own, run in every function: API keys, personal access tokens and OAuth tokens (stored hashed in DynamoDB) for the API; the session cookie (server-side sessions) for pages; OAuth client authentication (RFC 6749 2.3) at the token and revocation endpoints. The OpenAPI document, the reference page, sign-in, stylesheets, the authorization server's metadata and the fallback are public by design.",
    });
  }

  /** The function of a route, on the role its permissions share, with its table and queue access. */
  routeFunction(route: TableRoute): ServiceFunction {
    const roleId = roleIdOf(route);
    let role = this.roles.get(roleId);
    if (!role) {
      // Named after the domain too: logical ids stay unique across the app.
      role = new FunctionRole(new Construct(this, `${this.domain.replace(/[^A-Za-z0-9]/g, '')}${roleId}`), 'Shared');
      this.roles.set(roleId, role);
    }
    const fn = new ServiceFunction(this, constructIdOf(route.operationId), {
      handler: route.handler,
      description: `${route.method} ${route.path}`,
      serviceName: this.serviceName,
      timeout: route.timeoutSeconds === undefined ? undefined : Duration.seconds(route.timeoutSeconds),
      shippedModules: 'shippedFiles' in route ? route.shippedFiles : undefined,
      role,
      // Every API function logs to the API's one log group: its request lines are the access log.
      logGroup: kindOf(route) === 'api' ? this.core.apiLogs : undefined,
    });
    if (route.readsRequestLog) fn.bindRequestLog(this.core.apiLogs);
    if (route.tableAccess !== 'none') fn.bindTable(this.core.table, route.tableAccess);
    if (route.sendsDeliveries) fn.bindDeliveryQueue(this.core.deliveryQueue);
    if (route.sendsEmail) fn.bindMailer(this.notificationSender);
    if (route.readsFindingPatches) fn.bindPatchReader(this.core.artifacts, this.core.artifactKey);
    return fn;
  }

  /** `METHOD /path` of the API to the function. */
  addRoute(route: TableRoute, fn: ServiceFunction): void {
    const id = constructIdOf(route.operationId);
    new HttpRoute(this.routes, id, {
      httpApi: this.core.api,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: new HttpLambdaIntegration(`${id}Integration`, fn.function),
    });
  }

  /** The API's `$default` route (whatever no route matches) to the function. */
  addDefaultRoute(fn: ServiceFunction): void {
    new HttpRoute(this.routes, 'Default', {
      httpApi: this.core.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('FallbackIntegration', fn.function),
    });
  }
}
