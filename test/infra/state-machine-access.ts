import { actionsOf, arnOf, asArray, hasActionWithPrefix, only, type Statement, type templateLookups } from './template-helpers';
import { grantsOf } from './worker-grants';

type PolicyStatements = () => { roles: string[]; statement: Statement }[];

/**
 * The machine role's statements (`statements`): one Lambda statement, allowing lambda:InvokeFunction
 * on exactly the unqualified functions `functionIds`; besides it, log delivery and X-Ray only.
 */
export const expectMachineRoleInvokesExactly = (statements: Statement[], functionIds: string[]) => {
  const lambda = only(statements.filter(hasActionWithPrefix('lambda:')), 'Lambda statement');
  expect(lambda.Effect).toBe('Allow');
  expect(lambda.Condition).toBeUndefined();
  expect(actionsOf(lambda)).toEqual(['lambda:InvokeFunction']);
  const resources = asArray(lambda.Resource);
  expect(resources).toHaveLength(functionIds.length);
  expect(resources).toEqual(expect.arrayContaining(functionIds.map(arnOf)));
  for (const statement of statements.filter((st) => st !== lambda)) {
    for (const action of actionsOf(statement)) expect(action).toMatch(/^(logs|xray):/);
  }
};

/** Of every role, only the machine's (`machineRoleId`) may invoke the functions `functionIds`, and its statements name each of them once. */
export const expectInvokedByMachineRoleOnly = (policyStatements: PolicyStatements, machineRoleId: string, functionIds: string[]) => {
  const functionArns = functionIds.map((id) => JSON.stringify(arnOf(id)));
  const invokers = policyStatements()
    .filter(({ statement }) => hasActionWithPrefix('lambda:')(statement))
    .filter(({ statement }) => asArray(statement.Resource).some((r) => functionArns.includes(JSON.stringify(r))));
  expect(invokers.flatMap(({ roles }) => roles)).toEqual([machineRoleId]);
  expect(invokers.flatMap(({ statement }) => asArray(statement.Resource).map((r) => JSON.stringify(r))).sort()).toEqual(
    [...functionArns].sort(),
  );
};

/**
 * The function `description` knows the machine (`machineId`) by its ARN in `arnVariable`, and its
 * Step Functions grants are exactly `grants` (as `grantsOf` renders them), unconditional allows.
 */
export const expectMachineGrantsOf = (
  lookups: ReturnType<typeof templateLookups>,
  description: string,
  { arnVariable, machineId, grants }: { arnVariable: string; machineId: string; grants: string[] },
) => {
  expect(lookups.environmentOf(description)[arnVariable]).toEqual({ Ref: machineId });
  const statements = lookups.statementsOf(description).filter(hasActionWithPrefix('states:'));
  for (const statement of statements) {
    expect(statement.Effect).toBe('Allow');
    expect(statement.Condition).toBeUndefined();
  }
  expect(grantsOf(statements)).toEqual(grants);
};
