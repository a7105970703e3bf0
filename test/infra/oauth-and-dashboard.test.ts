import { keys } from '../../functions/adapters/dynamodb/keys';
import { dashboardDomain, dashboardRoutes } from '../../functions/routes/dashboard';
import { dashboardResourceRoutes, requestsRoute } from '../../functions/routes/dashboard-resources';
import { apiRoutes, webRoutes } from '../../functions/routes/index';
import { oauthDomain, oauthRoutes } from '../../functions/routes/oauth';
import { defaultNotificationSender } from '../../lib/app';
import { actionsOf, asArray, isDynamoStatement, isSesStatement, joined, only, templateLookups } from './template-helpers';
import { synthesized } from './synthesized';
import { grantsOf } from './worker-grants';

const description = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('the dashboard and the OAuth authorization server', () => {
  const s = synthesized();
  const lookups = templateLookups(s.template);
  const stackOf = (domain: string) => s.stack(s.domainStacks[domain] as string);

  it('serve every page from the Dashboard stack and every OAuth endpoint from the OAuth stack, each from its own function', () => {
    for (const [domain, rows] of [
      [dashboardDomain, dashboardRoutes],
      [oauthDomain, oauthRoutes],
    ] as const) {
      const stack = stackOf(domain);
      const routeKeys = Object.values(stack.findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey as string);
      expect(routeKeys.sort()).toEqual(rows.map(description).sort());
      for (const route of rows) {
        expect(Object.keys(stack.findResources('AWS::Lambda::Function', { Properties: { Description: description(route) } }))).toHaveLength(
          1,
        );
      }
    }
    const oauthKeys = oauthRoutes.map(description);
    for (const key of ['GET /oauth/authorize', 'POST /oauth/token', 'POST /oauth/revoke', 'GET /.well-known/oauth-authorization-server']) {
      expect(oauthKeys).toContain(key);
    }
    expect(dashboardRoutes.map(description)).toContain('GET /dashboard/sign-in');
  });

  it('serve the resource pages from three stacks of their own, each from its own function', () => {
    const domains = [...new Set(dashboardResourceRoutes.map((route) => route.domain))].sort();
    expect(domains).toEqual(['DashboardResources', 'DashboardSettings', 'DashboardWebhooks']);
    for (const domain of domains) {
      const rows = dashboardResourceRoutes.filter((route) => route.domain === domain);
      const routeKeys = Object.values(stackOf(domain).findResources('AWS::ApiGatewayV2::Route')).map((route) => route.Properties.RouteKey);
      expect(routeKeys.sort()).toEqual(rows.map(description).sort());
    }
  });

  it("attach every route to the core stack's one HTTP API and every function to its one table", () => {
    for (const domain of [dashboardDomain, oauthDomain, 'DashboardResources', 'DashboardSettings', 'DashboardWebhooks']) {
      for (const route of Object.values(stackOf(domain).findResources('AWS::ApiGatewayV2::Route'))) {
        expect(route.Properties.ApiId).toEqual({ 'Fn::ImportValue': `${s.coreStackName}:ApiId` });
      }
    }
    for (const route of webRoutes.filter((r) => r.tableAccess !== 'none')) {
      expect(lookups.environmentOf(description(route)).TABLE_NAME).toEqual({ Ref: s.idAt(`${s.coreStackName}/Table/Resource`) });
    }
  });

  it("let the Requests page query the API functions' one log group with Logs Insights, and no other group", () => {
    const apiLogs = { Ref: s.idAt(`${s.coreStackName}/ApiLogs/Resource`) };
    for (const route of apiRoutes) {
      expect([description(route), lookups.functionWithDescription(description(route)).Properties.LoggingConfig?.LogGroup]).toEqual([
        description(route),
        apiLogs,
      ]);
    }
    const requests = description(requestsRoute);
    expect(lookups.environmentOf(requests).API_LOG_GROUP).toEqual(apiLogs);
    const resourceOf = (action: string) =>
      lookups
        .statementsOf(requests)
        .filter((st) => actionsOf(st).includes(action))
        .map((st) => joined(st.Resource));
    expect(resourceOf('logs:StartQuery')).toEqual([
      `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:\${${apiLogs.Ref}}:*`,
    ]);
    // IAM scopes these two by nothing narrower: they name a query id, not a log group.
    expect(resourceOf('logs:GetQueryResults')).toEqual(['*']);
    expect(resourceOf('logs:StopQuery')).toEqual(['*']);
    // No other page may query it.
    for (const route of webRoutes.filter((r) => r !== requestsRoute)) {
      expect(lookups.environmentOf(description(route))?.API_LOG_GROUP).toBeUndefined();
    }
  });

  it('keep the OpenAPI rows apart from the web rows', () => {
    expect(apiRoutes.every((route) => route.path.startsWith('/v1/'))).toBe(true);
    expect(webRoutes.every((route) => !route.path.startsWith('/v1/') && route.kind !== undefined)).toBe(true);
  });

  it('give the invitation page, and only it, SES on the sender identity and the sender address (password resets are sent from the stream)', () => {
    const senders = webRoutes.filter((route) => route.sendsEmail);
    expect(senders.map(description).sort()).toEqual(['POST /dashboard/team']);
    for (const sender of senders) {
      const statement = only(lookups.statementsOf(description(sender)).filter(isSesStatement), 'SES statement');
      expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
      expect(asArray(statement.Resource).map(joined)).toEqual([
        `arn:\${AWS::Partition}:ses:\${AWS::Region}:\${AWS::AccountId}:identity/${defaultNotificationSender}`,
      ]);
      expect(lookups.environmentOf(description(sender)).NOTIFICATION_SENDER).toBe(defaultNotificationSender);
    }
    for (const route of webRoutes.filter((r) => !r.sendsEmail)) {
      expect([route.path, lookups.statementsOf(description(route)).filter(isSesStatement)]).toEqual([route.path, []]);
    }
  });

  it('let the stylesheet and the metadata functions touch no table', () => {
    const tableless = webRoutes.filter((r) => r.tableAccess === 'none');
    for (const route of tableless) {
      expect(lookups.statementsOf(description(route)).filter(isDynamoStatement)).toEqual([]);
      expect(lookups.environmentOf(description(route)).TABLE_NAME).toBeUndefined();
    }
    expect(tableless.map((r) => r.path).sort()).toEqual(['/.well-known/oauth-authorization-server', '/dashboard/assets/{file}']);
  });

  it("let every read-only API function record an OAuth grant's last use, and lease rate-limit tokens, and change nothing else", () => {
    const readRoute = only(
      apiRoutes.filter((route) => route.operationId === 'listProjects'),
      'listProjects',
    );
    const updates = lookups
      .statementsOf(description(readRoute))
      .filter(isDynamoStatement)
      .filter((statement) => actionsOf(statement).includes('dynamodb:UpdateItem'));
    expect(only(updates, 'update statement').Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern, keys.rateLimitLeadingKeyPattern],
      },
    });
  });

  describe("the dashboard's pages on the table", () => {
    const pages = [...dashboardRoutes, ...dashboardResourceRoutes];
    const reads = pages.filter((route) => route.method === 'GET' && route.tableAccess !== 'none');
    const actions = pages.filter((route) => route.method !== 'GET');
    const tableWrites = [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:BatchWriteItem',
    ];
    /** The statements of a function's role that allow any write to the table. */
    const writesOf = (page: string) =>
      lookups
        .statementsOf(page)
        .filter(isDynamoStatement)
        .filter((statement) => actionsOf(statement).some((action) => tableWrites.includes(action) || action.includes('*')));

    it('bind every page read (GET) with session access and every action (POST) with write access', () => {
      expect(reads.length).toBeGreaterThanOrEqual(29);
      expect(reads.filter((route) => route.tableAccess !== 'session').map(description)).toEqual([]);
      expect(actions.filter((route) => route.tableAccess !== 'write').map(description)).toEqual([]);
      // The pattern names the partition of every session item: the key a page read updates.
      const sessionKey = keys.session('0'.repeat(64)).pk;
      expect(sessionKey.startsWith(keys.sessionLeadingKeyPattern.slice(0, -1))).toBe(true);
      expect(keys.sessionLeadingKeyPattern.endsWith('#*')).toBe(true);
    });

    it.each(reads.map((route) => [description(route)]))(
      '%s may read the table and update its session (last use), and write nothing table-wide',
      (page) => {
        // Every write the role holds is limited to items of known partition-key prefixes.
        const writes = writesOf(page);
        expect(writes.length).toBeGreaterThan(0);
        for (const statement of writes) {
          expect(actionsOf(statement)).toEqual(['dynamodb:UpdateItem']);
          expect(Object.keys(statement.Condition ?? {})).toEqual(['ForAllValues:StringLike']);
          expect(statement.Condition?.['ForAllValues:StringLike']).toEqual({ 'dynamodb:LeadingKeys': expect.any(Array) });
        }
        const table = `\${${s.idAt(`${s.coreStackName}/Table/Resource`)}.Arn}`;
        const limitedTo = (patterns: string[]) =>
          ` if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } })}`;
        const dynamoStatements = lookups.statementsOf(page).filter(isDynamoStatement);
        expect(grantsOf(dynamoStatements)).toEqual(
          [
            ...['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'].flatMap((action) => [
              `${action} ${table}`,
              `${action} ${table}/index/*`,
            ]),
            `dynamodb:UpdateItem ${table}${limitedTo([keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern, keys.rateLimitLeadingKeyPattern])}`,
            `dynamodb:UpdateItem ${table}${limitedTo([keys.sessionLeadingKeyPattern])}`,
          ].sort(),
        );
      },
    );

    it.each(actions.filter((route) => route.tableAccess === 'write').map((route) => [description(route)]))(
      '%s keeps its table-wide write',
      (action) => {
        const unconditioned = lookups
          .statementsOf(action)
          .filter(isDynamoStatement)
          .filter((statement) => !statement.Condition && actionsOf(statement).includes('dynamodb:PutItem'));
        expect(actionsOf(only(unconditioned, 'write statement')).sort()).toEqual(
          ['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort(),
        );
      },
    );
  });

  it('output the authorization server (AuthUrl, the issuer) and the dashboard (DashboardUrl) beside ApiUrl in the core stack', () => {
    const core = s.stack(s.coreStackName);
    const api = s.idAt(`${s.coreStackName}/Api/Resource`);
    core.hasOutput('AuthUrl', { Value: { 'Fn::GetAtt': [api, 'ApiEndpoint'] } });
    core.hasOutput('DashboardUrl', { Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [api, 'ApiEndpoint'] }, '/dashboard']] } });
    core.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [api, 'ApiEndpoint'] }, '/v1']] } });
  });

  it('set no PUBLIC_ORIGIN in AWS: the pages take the origin API Gateway names', () => {
    for (const route of webRoutes) expect(lookups.environmentOf(description(route)).PUBLIC_ORIGIN).toBeUndefined();
  });

  it('leave cdk-nag nothing unacknowledged in either stack', () => {
    const web = [s.domainStacks[dashboardDomain], s.domainStacks[oauthDomain]] as string[];
    expect(s.violations.filter((violation) => web.some((name) => violation.includes(`${name}/`)))).toEqual([]);
  });
});
