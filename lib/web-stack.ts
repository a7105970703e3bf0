import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { webRoutes } from '../functions/routes/index';
import type { WebRouteDefinition } from '../functions/routes/route';
import { ServiceFunction } from './constructs/service-function';
import type { ServiceStack } from './service-stack';

export interface WebStackProps extends StackProps {
  service: ServiceStack;
  serviceName?: string;
}

const constructIdOf = (operationId: string): string => operationId.charAt(0).toUpperCase() + operationId.slice(1);

/** What a web route may ask of its function that this stack binds; anything else is refused at synth. */
const unsupportedBindings = (route: WebRouteDefinition): string[] =>
  (['sendsDeliveries', 'workflowExecutions', 'deploymentExecutions', 'startsSecurityJobs', 'startsTestJobs'] as const).filter(
    (flag) => route[flag],
  );

/**
 * The route table's `page` and `oauth` rows: the dashboard's pages and the OAuth authorization
 * server, one function per route on the service's HTTP API and table. A stack of its own, since
 * the service stack is near CloudFormation's 500 resources.
 */
export class WebStack extends Stack {
  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { service } = props;
    const serviceName = props.serviceName ?? 'project-automation-service';
    // The service table under export names of our own choosing, so least-privilege statements
    // (and cdk-nag's findings about them) name it the same way in every synth.
    const table = TableV2.fromTableAttributes(this, 'ServiceTable', {
      tableArn: service.exportValue(service.table.tableArn, { name: `${service.stackName}-TableArn` }),
    });

    for (const route of webRoutes) {
      const unsupported = unsupportedBindings(route);
      if (unsupported.length > 0) throw new Error(`${route.operationId}: WebStack does not bind ${unsupported.join(', ')}`);
      const id = constructIdOf(route.operationId);
      const routeFunction = new ServiceFunction(this, id, {
        handler: route.handler,
        description: `${route.method} ${route.path}`,
        serviceName,
        timeout: route.timeoutSeconds === undefined ? undefined : Duration.seconds(route.timeoutSeconds),
      });
      if (route.tableAccess !== 'none') routeFunction.bindTable(table, route.tableAccess);
      if (route.sendsEmail) routeFunction.bindMailer(service.notificationSender);
      new HttpRoute(this, `${id}Route`, {
        httpApi: service.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, routeFunction.function),
      });
    }

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Pages authenticate by the session cookie (server-side sessions in DynamoDB), the token and revocation endpoints by OAuth client authentication (RFC 6749 2.3), in the functions; sign-in, the stylesheet and the metadata are public by design.',
    });
  }
}
