import { fileURLToPath } from 'node:url';
import { environmentOf } from '../../bench/function-environments';
import { appFunctions } from '../../lib/stack-trace/rebuilt-bundle';
import { synthesized } from './synthesized';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Every function of the app, by the handler it runs (`workers/security-job`). */
export const serviceFunctions = () => appFunctions(projectRoot);

/** The variables the function of `description` has in the synthesized app (references as placeholders of their kind). */
export const deployedEnvironment = (description: string): Record<string, string> => {
  const resource = Object.values(synthesized().templates)
    .flatMap((template) => Object.values((template.Resources ?? {}) as Record<string, any>))
    .find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === description);
  if (!resource) throw new Error(`no function is described "${description}"`);
  return environmentOf(resource);
};
