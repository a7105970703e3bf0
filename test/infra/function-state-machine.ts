import type { Statement, templateLookups } from './template-helpers';
import {
  expectDefinitionWithPlaceholdersReplaced,
  expectPlaceholdersOf,
  expectStandardTracedMachineLoggingToRetainedGroup,
} from './state-machine-definition';
import { expectInvokedByMachineRoleOnly, expectMachineRoleInvokesExactly } from './state-machine-access';

/** What the tests of a state machine read of the synthesized app. */
export interface SynthesizedStateMachine {
  lookups: ReturnType<typeof templateLookups>;
  /** The definition files synthesis wrote as assets, by state machine logical id. */
  definitions: Record<string, string>;
  machineId: string;
  machineRoleId: string;
  /** Every statement of every IAM policy in the stack, with the roles it is attached to. */
  policyStatements: () => { roles: string[]; statement: Statement }[];
  /** Statements of one role: inline and attached. */
  statementsOfRole: (roleId: string) => Statement[];
}

interface SynthesizedFunctionMachine<Key extends string> extends SynthesizedStateMachine {
  /** Logical id of each function the machine calls. */
  functionIds: Record<Key, string>;
}

/**
 * The tests every state machine built by `functionStateMachine` (lib/constructs/function-state-machine.ts)
 * passes: the `count` ("four") `noun` ("step") functions of `keys`, named by the placeholders of the ASL file.
 */
export const itRunsFunctionStateMachine = <Key extends string>(
  synthesized: () => SynthesizedFunctionMachine<Key>,
  {
    aslText,
    placeholders,
    keys,
    count,
    noun,
  }: { aslText: string; placeholders: Record<string, Key>; keys: Key[]; count: string; noun: string },
) => {
  const idsOf = (s: SynthesizedFunctionMachine<Key>) => keys.map((key) => s.functionIds[key]);

  it('is a STANDARD machine with tracing, logging ALL without execution data to a log group with a retention', () => {
    expectStandardTracedMachineLoggingToRetainedGroup(synthesized());
  });

  it(`the ASL file names exactly the ${count} ${noun} placeholders`, () => {
    expectPlaceholdersOf(aslText, placeholders, keys);
  });

  it(`runs the ASL file with every \${…}Arn placeholder replaced by the Arn of its ${noun} function`, () => {
    const s = synthesized();
    expectDefinitionWithPlaceholdersReplaced(s, aslText, placeholders, s.functionIds);
  });

  it(`its role may invoke exactly the ${count} unqualified ${noun} functions, and nothing else of Lambda`, () => {
    const s = synthesized();
    // As many functions as the test's own placeholder table names.
    expect(keys).toHaveLength(new Set(Object.values(placeholders)).size);
    expectMachineRoleInvokesExactly(s.statementsOfRole(s.machineRoleId), idsOf(s));
  });

  it(`the ${noun} functions are invoked by no other role`, () => {
    const s = synthesized();
    expectInvokedByMachineRoleOnly(s.policyStatements, s.machineRoleId, idsOf(s));
  });
};
