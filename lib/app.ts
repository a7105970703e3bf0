import type { App } from 'aws-cdk-lib';
import { ServiceStack } from './service-stack';
import { WebStack } from './web-stack';

export const defaultStackName = 'ProjectAutomationService';

/** Builds the service into an app; `bin/app.ts` and the infra tests share it. */
export const buildApp = (app: App): ServiceStack => {
  const stackName: string = app.node.tryGetContext('stackName') ?? defaultStackName;
  const service = new ServiceStack(app, stackName, {
    description:
      'Project automation service: HTTP API, one Lambda function per route, one DynamoDB table, webhook delivery queue and workers',
  });
  new WebStack(app, webStackNameOf(stackName), {
    service,
    description: 'Project automation service: the dashboard pages and the OAuth 2.0 authorization server, on the service HTTP API',
  });
  return service;
};

/** The stack of the dashboard and the authorization server, beside the service stack. */
export const webStackNameOf = (stackName: string): string => `${stackName}Web`;
