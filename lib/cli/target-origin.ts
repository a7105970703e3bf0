import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { dataDirFromEnvironment, readRuntimeInfo } from '../local/runtime-file';
import { TargetError } from './target-table';

/**
 * The origin of the service the CLI acts on, for the links it prints: the running local runtime's
 * (`http://localhost:<port>`), or a deployed stack's, from its `AuthUrl` output.
 */
export const targetOrigin = async (stackName: string | undefined): Promise<string> => {
  if (stackName) {
    const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stackName }));
    const authUrl = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'AuthUrl')?.OutputValue;
    if (!authUrl) throw new TargetError(`Stack ${stackName} has no AuthUrl output: is it this service's stack?`);
    return new URL(authUrl).origin;
  }
  const info = await readRuntimeInfo(dataDirFromEnvironment());
  if (!info)
    throw new TargetError('The local runtime is not running: start it with `npm start`, or pass --stack <name> for a deployed stack.');
  return new URL(info.apiUrl).origin;
};
