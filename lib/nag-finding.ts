import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * A resource (an ARN token, maybe with a suffix) as cdk-nag names it in a finding id: references
 * as `<LogicalId>` or `<LogicalId.Attr>`, an imported value as its export name, joins joined.
 */
export const nagResource = (scope: IConstruct, value: string): string => {
  const visit = (node: unknown): string => {
    if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
    const object = node as Record<string, unknown>;
    if (object['Fn::Join']) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map(visit).join(separator);
    }
    if (object['Fn::GetAtt']) {
      const [resource, attribute] = object['Fn::GetAtt'] as [unknown, unknown];
      return `<${visit(resource)}.${visit(attribute)}>`;
    }
    if (object['Fn::ImportValue']) return visit(object['Fn::ImportValue']);
    if (object.Ref) return `<${visit(object.Ref)}>`;
    return JSON.stringify(node);
  };
  return visit(Stack.of(scope).resolve(value));
};
