import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { createDocumentClient, type TableRef } from '../../functions/adapters/dynamodb/client';
import { locateRuntime, runtimeLookupProblem } from '../local/runtime-file';

export class TargetError extends Error {}

/** The table of a deployed stack, from its `TableName` output; AWS credentials from the environment. */
const deployedTable = async (stackName: string): Promise<TableRef> => {
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
  const tableName = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
  if (!tableName) throw new TargetError(`Stack ${stackName} has no TableName output: is it this service's stack?`);
  return { client: createDocumentClient(), tableName };
};

/** The table of the running local runtime, as its runtime.json describes it. */
const localTable = async (): Promise<TableRef> => {
  const lookup = await locateRuntime();
  if (lookup.kind !== 'found') throw new TargetError(runtimeLookupProblem(lookup));
  const { info } = lookup;
  // Said on stderr, so that --json output stays one object.
  if (lookup.foundBy === 'registry') console.error(`Using the local runtime with DATA_DIR=${lookup.dataDir} (${info.apiUrl}).`);
  return {
    client: createDocumentClient({
      endpoint: info.dynamodbEndpoint,
      region: info.region,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
    tableName: info.tableName,
  };
};

export const targetTable = (stackName: string | undefined): Promise<TableRef> => (stackName ? deployedTable(stackName) : localTable());
