import { DescribeExecutionCommand, SFNClient, StartExecutionCommand, type DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import {
  type LocalMachineOptions,
  type LocalStepFunctions,
  type LocalStepFunctionsOptions,
  startLocalStepFunctions,
} from '../../../lib/local/step-functions/local-step-functions';
import { validateDefinitionFile } from '../../../lib/local/step-functions/validate-definition';

/** Shared by the tests that run a state machine on the local Step Functions endpoint. */

/** The ARN of a stub Lambda function, to substitute into a definition. */
export const stubFunctionArn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:function:${name}`;

/** An SFNClient for the local endpoint. */
export const localClientFor = (local: LocalStepFunctions) =>
  new SFNClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** One machine behind a local endpoint (timeScale 0.01 unless told), and an SFNClient for it. */
export const startLocalMachine = async (
  machine: LocalMachineOptions,
  options: Partial<Omit<LocalStepFunctionsOptions, 'machines'>> = {},
) => {
  const local = await startLocalStepFunctions({ machines: [machine], timeScale: 0.01, ...options });
  const client = localClientFor(local);
  return {
    local,
    client,
    stateMachineArn: local.stateMachineArn(machine.name),
    async close() {
      client.destroy();
      await local.stop();
    },
  };
};

export type LocalMachine = Awaited<ReturnType<typeof startLocalMachine>>;

/** Starts an execution and polls it until it is no longer RUNNING; after 20 s fails with `progress()`. */
export const runToEnd = async (
  client: SFNClient,
  stateMachineArn: string,
  input: unknown,
  name: string,
  progress: () => string,
): Promise<DescribeExecutionCommandOutput> => {
  const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const described = await client.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    if (Date.now() > deadline) throw new Error(`execution still RUNNING: ${progress()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * The definition file's tests: valid with and without `substitutions`, and the function ARN
 * `omitted` reported when its substitution is left out.
 */
export const itValidatesDefinition = (definitionFile: string, substitutions: Record<string, string>, omitted: string) => {
  it('is a valid definition, with and without its substitutions', () => {
    expect(validateDefinitionFile(definitionFile)).toEqual({ valid: true, errors: [] });
    expect(validateDefinitionFile(definitionFile, substitutions)).toEqual({ valid: true, errors: [] });
  });

  it('reports a function ARN left without a substitution', () => {
    const withoutOne = Object.fromEntries(Object.entries(substitutions).filter(([name]) => name !== omitted));
    expect(validateDefinitionFile(definitionFile, withoutOne).errors).toEqual([
      `UNRESOLVED_PLACEHOLDER: no substitution for \${${omitted}}`,
    ]);
  });
};
