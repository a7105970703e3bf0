import type { SynthesizedWorker } from './async-worker';
import { actionsOf, arnOf, hasActionWithPrefix } from './template-helpers';

/**
 * The starter `description` knows the function by its name in `nameVariable` and holds one Lambda
 * statement, invoking it; nothing with any of `unheldPrefixes` (the job's own permissions stay with the worker).
 */
export const expectStarterOnlyInvokes = (s: SynthesizedWorker, description: string, nameVariable: string, unheldPrefixes: string[]) => {
  expect(s.lookups.environmentOf(description)[nameVariable]).toEqual({ Ref: s.functionId });
  const lambda = s.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:'));
  expect(lambda).toEqual([{ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: arnOf(s.functionId) }]);
  for (const prefix of unheldPrefixes) {
    expect([prefix, s.lookups.statementsOf(description).filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
  }
};

/**
 * No function but the starters knows the function (`nameVariable`), the read routes (which must
 * exist) hold no Lambda permission, and of every role only the starters' hold a permission on the
 * function: lambda:InvokeFunction. Returns the statements on the function, with their roles.
 */
export const expectOnlyStartersKnowAndInvoke = (s: SynthesizedWorker, nameVariable: string, starters: string[], readers: string[]) => {
  for (const description of readers) expect(s.descriptions()).toContain(description);
  for (const description of s.descriptions().filter((d) => !starters.includes(d))) {
    expect([description, s.lookups.environmentOf(description)[nameVariable]]).toEqual([description, undefined]);
  }
  for (const description of readers) {
    expect([description, s.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:'))]).toEqual([description, []]);
  }
  const onFunction = s.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${s.functionId}"`));
  expect([...new Set(onFunction.flatMap(({ roles }) => roles))].sort()).toEqual([...new Set(starters.map(s.roleOf))].sort());
  for (const { statement } of onFunction) expect(actionsOf(statement)).toEqual(['lambda:InvokeFunction']);
  return onFunction;
};
