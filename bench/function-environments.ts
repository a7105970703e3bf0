import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';

/**
 * The environment each function of the stack gets in AWS, read from the synthesized app (bundling
 * skipped), by the function's description (`GET /v1/projects/{id}`, `$default: …`). References the
 * stack resolves at deploy time (ARNs, names, URLs) become placeholders of the same kind: a probe
 * imports the bundle with every variable its function has, so nothing fails for a missing one and
 * nothing drifts from a hand-kept list.
 */
export const synthesizedEnvironments = (): Map<string, Record<string, string>> => {
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  buildApp(app);
  const environments = new Map<string, Record<string, string>>();
  for (const stack of app.synth().stacks) {
    for (const resource of Object.values((stack.template as { Resources: Record<string, any> }).Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      environments.set(resource.Properties.Description as string, environmentOf(resource));
    }
  }
  return environments;
};

/** A synthesized function's variables, each reference the stack resolves at deploy time a placeholder of its kind. */
export const environmentOf = (resource: {
  Properties: { Environment?: { Variables?: Record<string, unknown> } };
}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(resource.Properties.Environment?.Variables ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : placeholderFor(name),
    ]),
  );

const placeholderFor = (name: string): string => {
  const lower = name.toLowerCase().replace(/_/g, '-');
  if (name.endsWith('_ARN') || name.endsWith('_KEY_ID')) return `arn:aws:bench:us-east-1:000000000000:${lower}`;
  if (name.endsWith('_URL')) return `https://bench.invalid/${lower}`;
  return `bench-${lower}`;
};
