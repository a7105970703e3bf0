import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { environmentOf } from '../../bench/function-environments';
import { buildApp } from '../../lib/app';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { synthesized } from './synthesized';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

const handlersDir = join(projectRoot, 'functions', 'handlers') + '/';

/** Every function of the app, by the handler it runs (`workers/security-job`): what it is built from and how it is described. */
export const serviceFunctions = (): Map<string, ServiceFunction> => {
  // Bundling skipped: the constructs are wanted, not their assets.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  buildApp(app);
  return new Map(
    app.node
      .findAll()
      .filter((construct): construct is ServiceFunction => construct instanceof ServiceFunction)
      .map((fn) => [fn.bundle.entry.slice(handlersDir.length).replace(/\.ts$/, ''), fn]),
  );
};

/** The variables the function of `description` has in the synthesized app (references as placeholders of their kind). */
export const deployedEnvironment = (description: string): Record<string, string> => {
  const resource = Object.values(synthesized().templates)
    .flatMap((template) => Object.values((template.Resources ?? {}) as Record<string, any>))
    .find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description);
  if (!resource) throw new Error(`no function is described "${description}"`);
  return environmentOf(resource);
};
