import { only, joined, type templateLookups } from './template-helpers';

interface SynthesizedMachine {
  lookups: ReturnType<typeof templateLookups>;
  /** The definition files synthesis wrote as assets, by state machine logical id. */
  definitions: Record<string, string>;
  machineId: string;
}

/**
 * The definition the machine runs, as text, with each function's GetAtt rendered `${<logicalId>.Arn}`:
 * its DefinitionString (a string or an Fn::Join), or the file asset named by DefinitionS3Location, after
 * DefinitionSubstitutions are applied.
 */
export const resolvedDefinitionOf = ({ lookups, definitions, machineId }: SynthesizedMachine, aslText: string): string => {
  const properties = lookups.resources()[machineId]!.Properties;
  let text: string;
  if (properties.DefinitionString !== undefined) {
    text = joined(properties.DefinitionString);
  } else {
    expect(properties.DefinitionS3Location.Key).toEqual(expect.any(String));
    text = definitions[machineId] as string;
    // The asset is the file itself, byte for byte.
    expect(text).toBe(aslText);
  }
  for (const [name, value] of Object.entries((properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>)) {
    text = text.split(`\${${name}}`).join(joined(value));
  }
  return text;
};

/** A STANDARD machine with tracing, logging ALL without execution data to a log group of its own with a 30-day retention. */
export const expectStandardTracedMachineLoggingToRetainedGroup = ({ lookups, machineId }: Omit<SynthesizedMachine, 'definitions'>) => {
  const machine = lookups.resources()[machineId]!;
  expect(machine.Properties).toMatchObject({
    StateMachineType: 'STANDARD',
    TracingConfiguration: { Enabled: true },
    LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
  });
  const destination = only(
    machine.Properties.LoggingConfiguration.Destinations as { CloudWatchLogsLogGroup: { LogGroupArn: unknown } }[],
    'log destination',
  );
  expect(destination.CloudWatchLogsLogGroup.LogGroupArn).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
  const logGroupId = (destination.CloudWatchLogsLogGroup.LogGroupArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  expect(lookups.resources()[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
};

/** The ASL file names exactly the placeholders of `placeholders`, and those name every one of `keys`. */
export const expectPlaceholdersOf = <Key extends string>(aslText: string, placeholders: Record<string, Key>, keys: Key[]) => {
  const named = new Set([...aslText.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1]));
  expect([...named].sort()).toEqual(Object.keys(placeholders).sort());
  expect(new Set(Object.values(placeholders))).toEqual(new Set(keys));
};

/** The machine runs the ASL file with every placeholder replaced by the Arn of its function (`${<logicalId>.Arn}`), none left. */
export const expectDefinitionWithPlaceholdersReplaced = <Key extends string>(
  machine: SynthesizedMachine,
  aslText: string,
  placeholders: Record<string, Key>,
  functionIds: Record<Key, string>,
) => {
  const definition = resolvedDefinitionOf(machine, aslText);
  let expected = aslText;
  for (const [name, key] of Object.entries(placeholders)) expected = expected.split(`\${${name}}`).join(`\${${functionIds[key]}.Arn}`);
  expect(definition).not.toMatch(/\$\{\w+\}/);
  expect(JSON.parse(definition)).toEqual(JSON.parse(expected));
};
