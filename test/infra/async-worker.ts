import { arnOf, only, templateLookups } from './template-helpers';
import { idsOf, synthesized } from './synthesized';

type Ids = ReturnType<typeof idsOf>;

/**
 * The whole app synthesized with `context`, and what the tests of one asynchronous worker function
 * (told by `description`) read of it. Its logical id is told by construct (`functionIdOf`), not by
 * a property under test.
 */
export const synthesizedWorker = (context: Record<string, unknown>, description: string, functionIdOf: (ids: Ids) => string) => {
  const app = synthesized(context);
  const ids = idsOf(app);
  const template = app.template;
  const lookups = templateLookups(template);
  const functionId = functionIdOf(ids);
  expect(lookups.functionIdWithDescription(description)).toBe(functionId);
  const fn = lookups.functionWithDescription(description);
  const { policyStatements, statementsOfRole, roleOf } = lookups;
  return {
    app,
    ids,
    template,
    lookups,
    functionId,
    roleId: fn.Properties.Role['Fn::GetAtt'][0] as string,
    tableId: ids.table,
    logGroupId: fn.Properties.LoggingConfig.LogGroup.Ref as string,
    properties: fn.Properties,
    environment: () => lookups.environmentOf(description),
    statements: () => lookups.statementsOf(description),
    /** Description of every function. */
    descriptions: () => Object.values(template.findResources('AWS::Lambda::Function')).map((f) => f.Properties.Description as string),
    policyStatements,
    statementsOfRole,
    roleOf,
  };
};

export type SynthesizedWorker = ReturnType<typeof synthesizedWorker>;

/** Its whole event invoke config: `retries` retries, events up to 6 hours old, then the failure queue `queueId`. */
export const expectInvokedAsynchronously = (s: SynthesizedWorker, queueId: string, retries: number) => {
  const config = only(
    Object.values(s.template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: s.functionId } } })),
    `event invoke config of ${s.functionId}`,
  );
  expect(config.Properties).toEqual({
    FunctionName: { Ref: s.functionId },
    Qualifier: '$LATEST',
    MaximumRetryAttempts: retries,
    MaximumEventAgeInSeconds: 21600,
    DestinationConfig: { OnFailure: { Destination: arnOf(queueId) } },
  });
};

/** No Lambda permission (API route or other service principal), event source mapping or API integration names the function. */
export const expectReachedByNoRouteOrEventSource = (s: SynthesizedWorker) => {
  const references = (resource: unknown) => JSON.stringify(resource).includes(`"${s.functionId}"`);
  expect(
    Object.values(s.template.findResources('AWS::Lambda::Permission')).filter((permission) =>
      references(permission.Properties.FunctionName),
    ),
  ).toEqual([]);
  expect(
    Object.values(s.template.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
      references(mapping.Properties.FunctionName),
    ),
  ).toEqual([]);
  expect(
    Object.values(s.template.findResources('AWS::ApiGatewayV2::Integration')).filter((integration) =>
      references(integration.Properties.IntegrationUri),
    ),
  ).toEqual([]);
};
