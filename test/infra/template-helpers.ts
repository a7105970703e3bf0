import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';

// The feature flags `cdk synth` uses, with bundling skipped so the tests stay fast.
const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
export const newApp = (context: Record<string, unknown> = {}): App =>
  new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context } });

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
export const actionsOf = (statement: Statement): string[] => asArray(statement.Action);
export const hasActionWithPrefix = (prefix: string) => (statement: Statement) =>
  actionsOf(statement).some((action) => action.startsWith(prefix));
/** `{ Fn::GetAtt: [logicalId, 'Arn'] }`: how a template names the resource's ARN. */
export const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
export const isDynamoStatement = (statement: Statement): boolean => actionsOf(statement).some((action) => action.startsWith('dynamodb:'));
export const isSqsStatement = (statement: Statement): boolean => actionsOf(statement).some((action) => action.startsWith('sqs:'));
export const isSesStatement = (statement: Statement): boolean => actionsOf(statement).some((action) => action.startsWith('ses:'));

export const only = <T>(values: T[], what: string): T => {
  if (values.length !== 1) throw new Error(`expected exactly one ${what}, found ${values.length}`);
  return values[0] as T;
};

/** `{ Fn::Join: ['', [...]] }` as one string, pseudo parameters and references shown as `${Name}`. */
export const joined = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  if (object.Ref) return `\${${object.Ref as string}}`;
  if (object['Fn::GetAtt']) return `\${${(object['Fn::GetAtt'] as string[]).join('.')}}`;
  const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
  return parts.map(joined).join(separator);
};

/** Lookups into one synthesized template. */
export const templateLookups = (template: Template) => {
  const resources = () =>
    template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any>; DependsOn?: string[] }>;

  const functionIdWithDescription = (description: string): string =>
    only(
      Object.keys(template.findResources('AWS::Lambda::Function', { Properties: { Description: description } })),
      `function "${description}"`,
    );

  const functionWithDescription = (description: string) => resources()[functionIdWithDescription(description)]!;

  const environmentOf = (description: string): Record<string, unknown> =>
    functionWithDescription(description).Properties.Environment.Variables;

  /** Every statement of the stand-alone policies, with the roles each is attached to. */
  const policyStatements = () =>
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Statement[]).map((statement) => ({
        roles: (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref),
        statement,
      })),
    );

  /** Every statement the role holds: its inline policies and the policies attached to it. */
  const statementsOfRole = (roleId: string): Statement[] => [
    ...((resources()[roleId]!.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
      (policy) => policy.PolicyDocument.Statement,
    ),
    ...policyStatements()
      .filter((entry) => entry.roles.includes(roleId))
      .map((entry) => entry.statement),
  ];

  /** The logical id of the function's execution role. */
  const roleOf = (description: string): string => functionWithDescription(description).Properties.Role['Fn::GetAtt'][0];

  /** Every statement the function's role holds: its inline policies and the policies attached to it. */
  const statementsOf = (description: string): Statement[] => {
    const roleId: string = functionWithDescription(description).Properties.Role['Fn::GetAtt'][0];
    const role = resources()[roleId]!;
    const attached = Object.values(
      template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) } }),
    );
    return [
      ...(role.Properties.Policies ?? []).flatMap(
        (policy: { PolicyDocument: { Statement: Statement[] } }) => policy.PolicyDocument.Statement,
      ),
      ...attached.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]),
    ];
  };

  return {
    resources,
    functionIdWithDescription,
    functionWithDescription,
    environmentOf,
    policyStatements,
    statementsOfRole,
    roleOf,
    statementsOf,
  };
};
