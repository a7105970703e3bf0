import { CfnOutput, type App } from 'aws-cdk-lib';
import { fallbackHandler, routeTable } from '../functions/routes/index';
import type { TableRoute } from '../functions/routes/route';
import { aiSettingsFromContext } from './constructs/ai-settings';
import { repositoryTokenFromContext } from './constructs/repository-token';
import { DeploymentOrchestration } from './constructs/deployment-orchestration';
import { ExecutionSafetyNet } from './constructs/execution-safety-net';
import { ImageBuilds } from './constructs/image-builds';
import { SecurityScanning } from './constructs/security-scanning';
import { ServiceFunction } from './constructs/service-function';
import { TestRunning } from './constructs/test-running';
import { CodeReviews } from './constructs/code-reviews';
import { WebhookDelivery } from './constructs/webhook-delivery';
import { WorkflowOrchestration } from './constructs/workflow-orchestration';
import { CoreStack } from './core-stack';
import { exportCoreReferences } from './core-references';
import { DomainStack, domainOf, domainStackName } from './domain-stack';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { stateMachineAlarms, workerErrorsAlarm } from './operations/alarms';
import { alarmEveryFunction } from './operations/function-alarms';

export const defaultStackName = 'ProjectAutomationService';
export const defaultNotificationSender = 'webhooks@example.com';
export const serviceName = 'project-automation-service';

/**
 * The domains whose stacks hold workers besides route functions. A route's domain is its `domain`
 * or its tag (`functions/routes`): a route of a new domain gets a stack of its own.
 */
export const workerDomains = {
  webhooks: 'Webhooks',
  workflows: 'Workflows',
  deployments: 'Deployments',
  security: 'Security',
  tests: 'Tests',
  reviews: 'Reviews',
  /** The fallback ($default) and the OpenAPI document. */
  meta: 'Meta',
  /** The safety nets, which watch the workflow and deployment state machines and the job queues. */
  operations: 'Operations',
} as const;

export interface BuildOptions {
  /** The route table (the infra tests add synthetic routes to measure headroom). */
  routes?: readonly TableRoute[];
}

export interface ServiceApp {
  core: CoreStack;
  domains: Map<string, DomainStack>;
  webhooks: WebhookDelivery;
  workflows: WorkflowOrchestration;
  images: ImageBuilds;
  deployments: DeploymentOrchestration;
  security: SecurityScanning;
  tests: TestRunning;
  reviews: CodeReviews;
  safetyNet: ExecutionSafetyNet;
}

const contextString = (app: App, name: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(name);
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
};

const contextList = (app: App, name: string): string[] =>
  (contextString(app, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Builds the service into an app; `bin/app.ts`, the infra tests and the bench share it. One core
 * stack (`CoreStack`, named by the context `stackName`) and one stack per domain.
 */
export const buildApp = (app: App, options: BuildOptions = {}): ServiceApp => {
  const coreStackName = contextString(app, 'stackName') ?? defaultStackName;
  const notificationSender = contextString(app, 'notificationSender') ?? defaultNotificationSender;
  const core = new CoreStack(app, coreStackName, {
    serviceName,
    alarmEmail: contextString(app, 'alarmEmail'),
    description: 'Project automation service: table, artifact buckets, keys, image repository, queues, HTTP API, alarm topic',
  });
  exportCoreReferences(core);

  const domains = new Map<string, DomainStack>();
  const domain = (name: string): DomainStack => {
    let stack = domains.get(name);
    if (!stack) {
      stack = new DomainStack(app, domainStackName(coreStackName, name), {
        coreStackName,
        serviceName,
        domain: name,
        notificationSender,
        description: `Project automation service, ${name}: route functions and workers`,
      });
      stack.addStackDependency(core, 'imports its exports');
      domains.set(name, stack);
    }
    return stack;
  };

  const ai = aiSettingsFromContext(app);
  const repositoryToken = repositoryTokenFromContext(app);

  const webhooksStack = domain(workerDomains.webhooks);
  const webhooks = new WebhookDelivery(webhooksStack, 'Webhooks', {
    table: webhooksStack.core.table,
    queues: {
      queue: webhooksStack.core.deliveryQueue,
      deadLetters: webhooksStack.core.deliveryDeadLetters,
      fanOutFailures: webhooksStack.core.fanOutFailures,
    },
    serviceName,
    notificationSender,
  });

  const deploymentsStack = domain(workerDomains.deployments);
  const deployments = new DeploymentOrchestration(deploymentsStack, 'Deployments', {
    table: deploymentsStack.core.table,
    serviceName,
    lambdaTargets: contextList(app, 'deployLambdaTargets'),
    lambdaTestTargets: contextList(app, 'deployLambdaTestTargets'),
    codeBuckets: contextList(app, 'deployCodeBuckets'),
  });

  const workflowsStack = domain(workerDomains.workflows);
  const workflows = new WorkflowOrchestration(workflowsStack, 'Workflows', {
    table: workflowsStack.core.table,
    artifacts: workflowsStack.core.artifacts,
    artifactKey: workflowsStack.core.artifactKey,
    signingKey: workflowsStack.core.signingKey,
    serviceName,
    ai,
    repositoryToken,
  });
  // Container images: the package stage builds one when the packaged tree has a Dockerfile.
  const images = new ImageBuilds(workflowsStack, 'Images', {
    artifacts: workflowsStack.core.artifacts,
    artifactKey: workflowsStack.core.artifactKey,
    repository: workflowsStack.core.imageRepository,
  });
  images.bindStarter(workflows.functions.package);
  // auto_deploy: the package stage starts a deployment of the change it packaged; the workflow's
  // state machine waits for it (state-machines/workflow.asl.json).
  deployments.bindStarter(workflows.functions.package);

  const securityStack = domain(workerDomains.security);
  const security = new SecurityScanning(securityStack, 'Security', {
    table: securityStack.core.table,
    serviceName,
    artifacts: securityStack.core.artifacts,
    artifactKey: securityStack.core.artifactKey,
    failures: securityStack.core.securityFailures,
    ai,
    repositoryToken,
    osvApiUrl: contextString(app, 'osvApiUrl') ?? 'https://api.osv.dev',
  });

  const testsStack = domain(workerDomains.tests);
  const tests = new TestRunning(testsStack, 'Tests', {
    table: testsStack.core.table,
    serviceName,
    artifacts: testsStack.core.artifacts,
    artifactKey: testsStack.core.artifactKey,
    failures: testsStack.core.testFailures,
    ai,
    repositoryToken,
  });

  // Reviews have a stack of their own: the review function needs the AI and the repository token,
  // not the artifact bucket or its key. Verify reviews the build's change in its own function
  // (the workflow's stack), so no other stack invokes this one.
  const reviewsStack = domain(workerDomains.reviews);
  const reviews = new CodeReviews(reviewsStack, 'Reviews', {
    table: reviewsStack.core.table,
    serviceName,
    ai,
    repositoryToken,
    failures: reviewsStack.core.reviewFailures,
  });

  const operationsStack = domain(workerDomains.operations);
  const safetyNet = new ExecutionSafetyNet(operationsStack, 'ExecutionSafetyNet', {
    table: operationsStack.core.table,
    serviceName,
    stateMachines: [workflows.stateMachine, deployments.stateMachine],
    jobFailureQueues: [operationsStack.core.securityFailures, operationsStack.core.testFailures, operationsStack.core.reviewFailures],
    executionFailures: operationsStack.core.executionFailures,
  });

  const metaStack = domain(workerDomains.meta);
  metaStack.addDefaultRoute(
    new ServiceFunction(metaStack, 'Fallback', {
      handler: fallbackHandler,
      description: '$default: 404 or 405 in the service envelope',
      serviceName,
    }),
  );

  for (const route of options.routes ?? routeTable) {
    const stack = domain(domainOf(route));
    const fn = stack.routeFunction(route);
    if (route.workflowExecutions === 'start') workflows.bindStarter(fn, ai);
    if (route.workflowExecutions === 'stop') workflows.bindStopper(fn);
    if (route.deploymentExecutions) deployments.bindStarter(fn);
    if (route.startsSecurityJobs) security.bindStarter(fn);
    if (route.startsTestJobs) tests.bindStarter(fn);
    if (route.startsReviewJobs) reviews.bindStarter(fn);
    stack.addRoute(route, fn);
  }

  new CfnOutput(workflowsStack, 'WorkflowStateMachineArn', {
    value: workflows.stateMachine.stateMachineArn,
    description: 'Runs the workflow stages',
  });
  new CfnOutput(deploymentsStack, 'DeploymentStateMachineArn', {
    value: deployments.stateMachine.stateMachineArn,
    description: 'Runs deployments and rollbacks',
  });

  const alarm = (stack: DomainStack) => new SnsAction(stack.core.alarmTopic);
  workerErrorsAlarm(webhooks, 'DispatcherErrors', alarm(webhooksStack), webhooks.dispatcher.function, 'Webhook dispatcher');
  workerErrorsAlarm(webhooks, 'FanOutErrors', alarm(webhooksStack), webhooks.fanOut.function, 'Webhook fan-out');
  workerErrorsAlarm(
    webhooks,
    'SecondStreamReaderErrors',
    alarm(webhooksStack),
    webhooks.secondStreamReader.function,
    "The table stream's second reader (deleted webhooks, password-reset e-mails)",
  );
  stateMachineAlarms(workflows, alarm(workflowsStack), workflows.stateMachine, 'Workflow state machine');
  stateMachineAlarms(deployments, alarm(deploymentsStack), deployments.stateMachine, 'Deployment state machine');
  for (const stack of domains.values()) alarmEveryFunction(stack, stack.core.alarmTopic, coreStackName);

  // Named private git hosts that repositories may resolve to (every fetch and push is guarded).
  const privateGitHosts = contextList(app, 'repositoryPrivateHosts');
  if (privateGitHosts.length > 0) {
    for (const stack of [core, ...domains.values()])
      for (const node of stack.node.findAll())
        if (node instanceof ServiceFunction) node.function.addEnvironment('REPOSITORY_PRIVATE_HOSTS', privateGitHosts.join(','));
  }
  return { core, domains, webhooks, workflows, images, deployments, security, tests, reviews, safetyNet };
};
