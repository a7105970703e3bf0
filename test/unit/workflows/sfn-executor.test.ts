import { stepFunctionsCall } from '../../../functions/adapters/aws/step-functions-call';
import { sfnDeploymentExecutor } from '../../../functions/adapters/deployments/sfn-deployment-executor';
import { executionArnOf, sfnWorkflowExecutor } from '../../../functions/adapters/workflows/sfn-executor';
import type { ExecutionInput } from '../../../functions/core/workflows/workflow-executor';
import { type Answer, startAwsEndpointServer, testCredentials, verifiedSignature } from '../fakes/aws-endpoint-server';

/**
 * The Step Functions executors against a stand-in for Step Functions' JSON endpoint on 127.0.0.1:
 * the calls the SDK would make (AWS JSON 1.0, `AWSStepFunctions.<Operation>`, SigV4 for `states`),
 * and the answers that are not errors for them (an execution already started, or already ended).
 */

const region = 'eu-west-1';
const machine = `arn:aws:states:${region}:123456789012:stateMachine:svc-Workflow`;
const input: ExecutionInput = {
  workflow: { account_id: 'acct_1', mode: 'test', id: 'wf_01JD2Q8X4B6V3C1N0M9K8J7H6G', project_id: 'prj_1' },
  max_iterations: 3,
};

const ok = (body: unknown): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: JSON.stringify(body),
});
const refusal = (type: string, message: string, status = 400): Answer => ({
  status,
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-ErrorType': type },
  body: JSON.stringify({ __type: `com.amazonaws.swf.service.v2.model#${type}`, message }),
});

let servers: Awaited<ReturnType<typeof startAwsEndpointServer>>[] = [];
const stepFunctions = async (answers: Answer[]) => {
  const server = await startAwsEndpointServer(answers);
  servers.push(server);
  const call = stepFunctionsCall({
    env: { AWS_REGION: region, AWS_ENDPOINT_URL_SFN: server.endpoint },
    credentials: testCredentials,
    baseDelayMs: 1,
  });
  return { server, call };
};
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('sfnWorkflowExecutor', () => {
  it('starts the execution named after the workflow with StartExecution, signed for states in the region', async () => {
    const { server, call } = await stepFunctions([ok({ executionArn: executionArnOf(machine, input.workflow.id), startDate: 1.7e9 })]);

    await sfnWorkflowExecutor(machine, call).start(input);

    expect(server.received).toHaveLength(1);
    const [request] = server.received;
    expect(request).toMatchObject({ method: 'POST', path: '/' });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'AWSStepFunctions.StartExecution',
    });
    expect(JSON.parse(request!.body)).toEqual({ stateMachineArn: machine, name: input.workflow.id, input: JSON.stringify(input) });
    const signedHeaders = await verifiedSignature(request!, { service: 'states', region });
    expect(signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-target']));
  });

  it('takes ExecutionAlreadyExists as started (the same name is the same workflow) and throws other refusals', async () => {
    const { call: started } = await stepFunctions([refusal('ExecutionAlreadyExists', `Execution Already Exists: '${input.workflow.id}'`)]);
    await expect(sfnWorkflowExecutor(machine, started).start(input)).resolves.toBeUndefined();

    const { server, call: missing } = await stepFunctions([refusal('StateMachineDoesNotExist', 'State Machine Does Not Exist')]);
    await expect(sfnWorkflowExecutor(machine, missing).start(input)).rejects.toMatchObject({
      name: 'StateMachineDoesNotExist',
      message: 'State Machine Does Not Exist',
    });
    expect(server.received).toHaveLength(1);
  });

  it('stops the execution by its ARN with StopExecution; one that no longer exists is stopped already', async () => {
    const { server, call } = await stepFunctions([ok({ stopDate: 1.7e9 }), refusal('ExecutionDoesNotExist', 'Execution Does Not Exist')]);
    const executor = sfnWorkflowExecutor(machine, call);

    await executor.stop(input.workflow.id, 'cancelled by the user');
    await executor.stop(input.workflow.id, 'cancelled by the user');

    expect(server.received.map((r) => r.headers['x-amz-target'])).toEqual([
      'AWSStepFunctions.StopExecution',
      'AWSStepFunctions.StopExecution',
    ]);
    expect(JSON.parse(server.received[0]!.body)).toEqual({
      executionArn: `arn:aws:states:${region}:123456789012:execution:svc-Workflow:${input.workflow.id}`,
      cause: 'cancelled by the user',
    });
  });

  it('retries throttling and server errors up to 3 attempts, then throws the last', async () => {
    const { server: recovers, call: recovering } = await stepFunctions([
      refusal('ThrottlingException', 'Rate exceeded'),
      refusal('ServiceUnavailable', 'Try again', 503),
      ok({ executionArn: 'arn', startDate: 1.7e9 }),
    ]);
    await sfnWorkflowExecutor(machine, recovering).start(input);
    expect(recovers.received).toHaveLength(3);

    const { server: never, call: throttled } = await stepFunctions([refusal('ThrottlingException', 'Rate exceeded')]);
    await expect(sfnWorkflowExecutor(machine, throttled).start(input)).rejects.toMatchObject({
      name: 'ThrottlingException',
      message: 'Rate exceeded',
    });
    expect(never.received).toHaveLength(3);
  });
});

describe('sfnDeploymentExecutor', () => {
  const deploymentMachine = `arn:aws:states:${region}:123456789012:stateMachine:svc-Deployment`;
  const deploy = { action: 'deploy' as const, deployment: { account_id: 'acct_1', mode: 'live' as const, id: 'dep_1' } };

  it('starts the named execution, and takes ExecutionAlreadyExists as started', async () => {
    const { server, call } = await stepFunctions([
      ok({ executionArn: 'arn', startDate: 1.7e9 }),
      refusal('ExecutionAlreadyExists', 'Execution Already Exists'),
    ]);
    const executor = sfnDeploymentExecutor(deploymentMachine, call);

    await executor.start(deploy, 'dep_1-deploy');
    await executor.start(deploy, 'dep_1-deploy');

    expect(server.received).toHaveLength(2);
    expect(server.received[0]!.headers['x-amz-target']).toBe('AWSStepFunctions.StartExecution');
    expect(JSON.parse(server.received[0]!.body)).toEqual({
      stateMachineArn: deploymentMachine,
      name: 'dep_1-deploy',
      input: JSON.stringify(deploy),
    });
    await verifiedSignature(server.received[0]!, { service: 'states', region });
  });
});
