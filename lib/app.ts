import type { App } from 'aws-cdk-lib';
import { ServiceStack } from './service-stack';

export const defaultStackName = 'ProjectAutomationService';

/** Builds the service into an app; `bin/app.ts` and the infra tests share it. */
export const buildApp = (app: App): ServiceStack => {
  const stackName: string = app.node.tryGetContext('stackName') ?? defaultStackName;
  return new ServiceStack(app, stackName, {
    description:
      'Project automation service: HTTP API, one Lambda function per route, one DynamoDB table, webhook delivery queue and workers',
  });
};
