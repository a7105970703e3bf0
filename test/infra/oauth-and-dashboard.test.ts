import { Validations, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { dashboardRoutes } from '../../functions/routes/dashboard';
import { routes } from '../../functions/routes/index';
import { oauthRoutes } from '../../functions/routes/oauth';
import { buildApp, webStackNameOf } from '../../lib/app';
import { defaultNotificationSender } from '../../lib/service-stack';
import { actionsOf, asArray, isDynamoStatement, isSesStatement, joined, newApp, only, templateLookups } from './template-helpers';

const webRoutes = [...dashboardRoutes, ...oauthRoutes];
const description = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

const build = (context: Record<string, unknown> = {}) => {
  const app = newApp(context);
  const service = buildApp(app);
  return { app, service, web: app.node.findChild(webStackNameOf(service.stackName)) as Stack };
};

describe('the dashboard and the OAuth authorization server (the web stack)', () => {
  const { service, web } = build();
  const template = Template.fromStack(web);
  const serviceTemplate = Template.fromStack(service);
  const lookups = templateLookups(template);
  const serviceLookups = templateLookups(serviceTemplate);
  const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey as string);

  it('serves every page and OAuth endpoint of the route table, each from its own function', () => {
    for (const route of webRoutes) {
      expect(routeKeys).toContain(description(route));
      expect(lookups.functionWithDescription(description(route)).Properties.Runtime).toBe('nodejs22.x');
    }
    for (const path of [
      '/oauth/authorize',
      '/oauth/token',
      '/oauth/revoke',
      '/.well-known/oauth-authorization-server',
      '/dashboard/sign-in',
    ]) {
      expect(routeKeys.some((key) => key.endsWith(` ${path}`))).toBe(true);
    }
  });

  it('keeps the OpenAPI rows (/v1) apart from the web rows', () => {
    expect(routes.every((route) => route.path.startsWith('/v1/'))).toBe(true);
    expect(webRoutes.every((route) => !route.path.startsWith('/v1/') && route.kind !== undefined)).toBe(true);
  });

  it('gives the password-reset page, and only it, SES on the sender identity and the sender address', () => {
    const senders = webRoutes.filter((route) => route.sendsEmail);
    expect(senders.map((route) => route.path)).toEqual(['/dashboard/forgot-password']);
    const [sender] = senders;
    const statement = only(lookups.statementsOf(description(sender!)).filter(isSesStatement), 'SES statement');
    expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
    expect(asArray(statement.Resource).map(joined)).toEqual([
      `arn:\${AWS::Partition}:ses:\${AWS::Region}:\${AWS::AccountId}:identity/${defaultNotificationSender}`,
    ]);
    expect(lookups.environmentOf(description(sender!)).NOTIFICATION_SENDER).toBe(defaultNotificationSender);
    for (const route of webRoutes.filter((r) => !r.sendsEmail)) {
      expect([route.path, lookups.statementsOf(description(route)).filter(isSesStatement)]).toEqual([route.path, []]);
    }
  });

  it('lets the stylesheet and the metadata functions touch no table', () => {
    for (const route of webRoutes.filter((r) => r.tableAccess === 'none')) {
      expect(lookups.statementsOf(description(route)).filter(isDynamoStatement)).toEqual([]);
      expect(lookups.environmentOf(description(route)).TABLE_NAME).toBeUndefined();
    }
    expect(
      webRoutes
        .filter((r) => r.tableAccess === 'none')
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/.well-known/oauth-authorization-server', '/dashboard/assets/{file}']);
  });

  it("lets every read-only API function record an OAuth grant's last use, and change nothing else of it", () => {
    const readRoute = only(
      routes.filter((route) => route.operationId === 'listProjects'),
      'listProjects',
    );
    const updates = serviceLookups
      .statementsOf(description(readRoute))
      .filter(isDynamoStatement)
      .filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'));
    expect(only(updates, 'update statement').Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern] },
    });
  });

  it('outputs the authorization server (AuthUrl, the issuer) and the dashboard (DashboardUrl)', () => {
    serviceTemplate.hasOutput('AuthUrl', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'ApiEndpoint'] } });
    serviceTemplate.hasOutput('DashboardUrl', {
      Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.anyValue(), 'ApiEndpoint'] }, '/dashboard']] },
    });
  });

  it('attaches every route to the service HTTP API and every function to the service table', () => {
    for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route'))) {
      expect(route.Properties.ApiId).toEqual({ 'Fn::ImportValue': expect.any(String) });
    }
    const withTable = webRoutes.filter((r) => r.tableAccess !== 'none');
    for (const route of withTable) {
      expect(JSON.stringify(lookups.environmentOf(description(route)).TABLE_NAME)).toContain(
        `"Fn::ImportValue":"${service.stackName}-TableArn"`,
      );
    }
  });

  it('sets no PUBLIC_ORIGIN in AWS: the pages take the origin API Gateway names', () => {
    for (const route of webRoutes) expect(lookups.environmentOf(description(route)).PUBLIC_ORIGIN).toBeUndefined();
  });
});

describe('cdk-nag AwsSolutions on the web stack', () => {
  it('reports no unacknowledged error or warning', () => {
    const { app, web } = build();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    app.synth();
    const { violations } = new AwsSolutionsChecks().validateScope(web);
    expect(violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual(
      [],
    );
  });
});
