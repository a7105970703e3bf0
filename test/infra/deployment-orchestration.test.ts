import { readFileSync } from 'node:fs';
import type { Template } from 'aws-cdk-lib/assertions';
import { routeTable as routes } from '../../functions/routes/index';
import { deploymentDefinitionFile, deploymentFunctionDescriptions } from '../../lib/constructs/deployment-orchestration';
import { securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { testsFunctionDescription } from '../../lib/constructs/test-running';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { stageFunctionDescriptions } from '../../lib/constructs/workflow-orchestration';
import {
  actionsOf,
  arnOf,
  asArray,
  hasActionWithPrefix,
  isDynamoStatement,
  only,
  type Statement,
  templateLookups,
} from './template-helpers';
import { resolvedDefinitionOf } from './state-machine-definition';
import { expectMachineGrantsOf } from './state-machine-access';
import { itRunsFunctionStateMachine, type SynthesizedStateMachine } from './function-state-machine';
import { idsOf, synthesized } from './synthesized';
import { grantsOf } from './worker-grants';

type StepKey = keyof typeof deploymentFunctionDescriptions;

const steps = Object.keys(deploymentFunctionDescriptions) as StepKey[];
/** The steps that talk to a provider, and so to the configured targets. */
const targetSteps: StepKey[] = ['deploy', 'health', 'rollback'];

/** The contract between `state-machines/deployment.asl.json` and the construct. */
const placeholderSteps: Record<string, StepKey> = {
  DeploymentControlFunctionArn: 'control',
  DeployFunctionArn: 'deploy',
  HealthCheckFunctionArn: 'health',
  RollbackFunctionArn: 'rollback',
};

const expectedTimeouts: Record<StepKey, number> = { control: 60, deploy: 300, health: 60, rollback: 300 };

const createDescription = 'POST /v1/deployments';
const rollbackDescription = 'POST /v1/deployments/{id}/rollback';
/** The dashboard's Roll back button: the same use case, the same grant. */
const dashboardRollbackDescription = 'POST /dashboard/deployments/{id}/rollback';
const readDescriptions = ['GET /v1/deployments', 'GET /v1/deployments/{id}'];
/** auto_deploy: the workflow package stage starts deployments too. */
const packageDescription = stageFunctionDescriptions.package;
const starterDescriptions = [createDescription, rollbackDescription, dashboardRollbackDescription, packageDescription];
/** The routes that start security jobs: asynchronous invocations of the security function. */
const securityStarterDescriptions = [
  'POST /v1/security/scans',
  'POST /v1/security/findings/{id}/remediate',
  'POST /dashboard/security/findings/{id}/remediate',
];
/** The routes that start test jobs: asynchronous invocations of the tests function. */
const testsStarterDescriptions = ['POST /v1/tests/generate', 'POST /v1/tests/run'];
/** The route that starts code reviews (invokes the review function). */
const reviewStarterDescriptions = ['POST /v1/reviews'];

const lambdaTarget = 'arn:aws:lambda:us-east-1:111122223333:function:shop';
/** A test-mode target (in a test account), and a function the operator allows in both modes. */
const testTarget = 'arn:aws:lambda:us-east-1:444455556666:function:shop-test';
const sharedTarget = 'arn:aws:lambda:us-east-1:111122223333:function:sandbox';
const bothModesContext = {
  deployLambdaTargets: `${lambdaTarget},${sharedTarget}`,
  deployLambdaTestTargets: ` ${testTarget}, ${sharedTarget} ,`,
  deployCodeBuckets: 'my-code',
};
/** What each provider step calls on a target, and no more. */
const lambdaActions: Partial<Record<(typeof targetSteps)[number], string[]>> = {
  deploy: [
    'lambda:CreateAlias',
    'lambda:GetAlias',
    'lambda:GetFunctionConfiguration',
    'lambda:PublishVersion',
    'lambda:UpdateAlias',
    'lambda:UpdateFunctionCode',
  ],
  health: ['lambda:InvokeFunction'],
  rollback: ['lambda:UpdateAlias'],
};
/** A code package's ARN in the stack's partition. */
const objectsOf = (bucket: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::${bucket}/*`]] });

const aslText = readFileSync(deploymentDefinitionFile, 'utf8');
const asl = JSON.parse(aslText) as {
  StartAt: string;
  States: Record<string, { Type: string; Resource?: string; TimeoutSeconds?: number }>;
};

interface Synthesized extends SynthesizedStateMachine {
  template: Template;
  stepIds: Record<StepKey, string>;
  /** Description of every function, by logical id. */
  descriptions: () => Map<string, string>;
  roleOf: (description: string) => string;
}

const synthesize = (context: Record<string, unknown> = {}): Synthesized => {
  const app = synthesized(context);
  const template = app.template;
  const lookups = templateLookups(template);
  const stepIds = Object.fromEntries(
    steps.map((step) => [step, lookups.functionIdWithDescription(deploymentFunctionDescriptions[step])]),
  ) as Record<StepKey, string>;
  // Told by construct, not by a property under test.
  const machineId = idsOf(app).deploymentMachine;
  const machine = lookups.resources()[machineId]!;
  expect(machine.Type).toBe('AWS::StepFunctions::StateMachine');
  const machineRoleId: string = machine.Properties.RoleArn['Fn::GetAtt'][0];
  const descriptions = () =>
    new Map(Object.entries(template.findResources('AWS::Lambda::Function')).map(([id, fn]) => [id, fn.Properties.Description as string]));
  const { policyStatements, statementsOfRole, roleOf } = lookups;
  return {
    definitions: app.definitions,
    template,
    lookups,
    stepIds,
    machineId,
    machineRoleId,
    policyStatements,
    statementsOfRole,
    descriptions,
    roleOf,
  };
};

/**
 * The Lambda statements a function other than the provider steps may hold: the security starters'
 * invoke of the security function, the tests starters' of the tests function and the review
 * starter's of the review function, exactly that; nothing for any other function.
 */
const expectedLambdaStatementsOf = (s: Synthesized, description: string): Statement[] => {
  const invoke = (workerDescription: string): Statement[] => [
    { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: arnOf(s.lookups.functionIdWithDescription(workerDescription)) },
  ];
  if (securityStarterDescriptions.includes(description)) return invoke(securityFunctionDescription);
  if (testsStarterDescriptions.includes(description)) return invoke(testsFunctionDescription);
  if (reviewStarterDescriptions.includes(description)) return invoke(reviewFunctionDescription);
  return [];
};

describe('deployment orchestration', () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize();
  });

  describe('state machine', () => {
    itRunsFunctionStateMachine(() => ({ ...s, functionIds: s.stepIds }), {
      aslText,
      placeholders: placeholderSteps,
      keys: steps,
      count: 'four',
      noun: 'step',
    });

    it('maps the four substitutions to the Arn of their step functions, and nothing else', () => {
      const substitutions = s.lookups.resources()[s.machineId]!.Properties.DefinitionSubstitutions as Record<string, unknown>;
      expect(substitutions).toEqual(
        Object.fromEntries(Object.entries(placeholderSteps).map(([name, step]) => [name, arnOf(s.stepIds[step])])),
      );
    });

    it('sends each Task to its step function', () => {
      const definition = JSON.parse(resolvedDefinitionOf(s, aslText)) as typeof asl;
      const tasks = Object.fromEntries(
        Object.entries(definition.States)
          .filter(([, state]) => state.Type === 'Task')
          .map(([name, state]) => [name, state.Resource]),
      );
      const of = (step: StepKey) => `\${${s.stepIds[step]}.Arn}`;
      expect(tasks).toEqual({
        StartDeployment: of('control'),
        Deploy: of('deploy'),
        CheckHealth: of('health'),
        CompleteDeployment: of('control'),
        RecordFailure: of('control'),
        AutoRollback: of('rollback'),
        Rollback: of('rollback'),
        RecordRollbackFailure: of('control'),
      });
    });

    it('outputs its ARN as DeploymentStateMachineArn', () => {
      s.template.hasOutput('DeploymentStateMachineArn', { Value: { Ref: s.machineId } });
    });
  });

  describe('step functions', () => {
    it.each(steps.map((step) => [step]))('%s has its timeout, below the timeout of every Task that calls it', (step) => {
      const timeout = s.lookups.functionWithDescription(deploymentFunctionDescriptions[step]).Properties.Timeout as number;
      expect(timeout).toBe(expectedTimeouts[step]);
      const placeholder = Object.keys(placeholderSteps).find((name) => placeholderSteps[name] === step)!;
      const tasks = Object.entries(asl.States).filter(([, state]) => state.Type === 'Task' && state.Resource === `\${${placeholder}}`);
      expect(tasks.length).toBeGreaterThan(0);
      for (const [name, state] of tasks) expect([name, state.TimeoutSeconds! > timeout]).toEqual([name, true]);
    });

    it.each(steps.map((step) => [step]))('%s may write the table', (step) => {
      const statements = s.lookups.statementsOf(deploymentFunctionDescriptions[step]).filter(isDynamoStatement);
      expect(statements.flatMap(actionsOf)).toEqual(
        expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem']),
      );
      expect(s.lookups.environmentOf(deploymentFunctionDescriptions[step]).TABLE_NAME).toEqual({ Ref: expect.any(String) });
    });

    it("without deployLambdaTargets or deployLambdaTestTargets no function holds any Lambda permission but the security, tests and review starters' invoke of their worker, and both target variables are empty", () => {
      for (const description of [...securityStarterDescriptions, ...testsStarterDescriptions, ...reviewStarterDescriptions])
        expect([...s.descriptions().values()]).toContain(description);
      for (const [, description] of s.descriptions()) {
        expect([description, s.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:'))]).toEqual([
          description,
          expectedLambdaStatementsOf(s, description),
        ]);
      }
      // Besides the security, tests and review starters', the state machines' invokes of their own steps are the only Lambda permissions in the stack.
      const lambdaRoles = s
        .policyStatements()
        .filter(({ statement }) => hasActionWithPrefix('lambda:')(statement))
        .flatMap(({ roles }) => roles);
      expect(lambdaRoles).toContain(s.machineRoleId);
      const machineRoles = Object.values(s.template.findResources('AWS::StepFunctions::StateMachine')).map(
        (machine) => machine.Properties.RoleArn['Fn::GetAtt'][0] as string,
      );
      expect(new Set(lambdaRoles)).toEqual(
        new Set([
          ...machineRoles,
          ...securityStarterDescriptions.map(s.roleOf),
          ...testsStarterDescriptions.map(s.roleOf),
          ...reviewStarterDescriptions.map(s.roleOf),
        ]),
      );
      for (const description of [...targetSteps.map((step) => deploymentFunctionDescriptions[step]), ...starterDescriptions]) {
        const env = s.lookups.environmentOf(description);
        expect([description, env.DEPLOY_LAMBDA_TARGETS, env.DEPLOY_LAMBDA_TEST_TARGETS]).toEqual([description, '', '']);
      }
      const control = s.lookups.environmentOf(deploymentFunctionDescriptions.control);
      expect([control.DEPLOY_LAMBDA_TARGETS, control.DEPLOY_LAMBDA_TEST_TARGETS]).toEqual([undefined, undefined]);
    });

    it('without deployCodeBuckets no step function holds any S3 permission', () => {
      for (const step of steps)
        expect([step, s.lookups.statementsOf(deploymentFunctionDescriptions[step]).filter(hasActionWithPrefix('s3:'))]).toEqual([step, []]);
    });

    it('no step function knows the state machine or may start it', () => {
      for (const step of steps) {
        const description = deploymentFunctionDescriptions[step];
        expect(s.lookups.environmentOf(description).DEPLOYMENT_STATE_MACHINE_ARN).toBeUndefined();
        expect(s.lookups.statementsOf(description).filter(hasActionWithPrefix('states:'))).toEqual([]);
      }
    });
  });

  describe('starters', () => {
    it('the route table marks exactly the create and rollback routes as starters', () => {
      expect(
        routes
          .filter((route) => route.deploymentExecutions)
          .map((route) => `${route.method} ${route.path}`)
          .sort(),
      ).toEqual([createDescription, rollbackDescription, dashboardRollbackDescription].sort());
    });

    it.each(starterDescriptions.map((description) => [description]))(
      '%s knows the machine and may only start its executions',
      (description) => {
        expectMachineGrantsOf(s.lookups, description, {
          arnVariable: 'DEPLOYMENT_STATE_MACHINE_ARN',
          machineId: s.machineId,
          grants: [`states:StartExecution \${${s.machineId}}`],
        });
      },
    );

    it('no other function knows the machine or holds a permission on it, the GET deployment routes included', () => {
      for (const description of readDescriptions) expect([...s.descriptions().values()]).toContain(description);
      for (const description of [...s.descriptions().values()].filter((d) => !starterDescriptions.includes(d))) {
        expect([description, s.lookups.environmentOf(description).DEPLOYMENT_STATE_MACHINE_ARN]).toEqual([description, undefined]);
        const onMachine = s.lookups
          .statementsOf(description)
          .filter((statement) => JSON.stringify(statement.Resource).includes(s.machineId));
        expect([description, onMachine]).toEqual([description, []]);
      }
      for (const description of readDescriptions) {
        expect([description, s.lookups.statementsOf(description).filter(hasActionWithPrefix('states:'))]).toEqual([description, []]);
        expect([description, s.lookups.environmentOf(description).DEPLOY_LAMBDA_TARGETS]).toEqual([description, undefined]);
        expect([description, s.lookups.environmentOf(description).DEPLOY_LAMBDA_TEST_TARGETS]).toEqual([description, undefined]);
      }
    });
  });

  describe('context deployLambdaTargets and deployCodeBuckets', () => {
    let targets: Synthesized;

    beforeAll(() => {
      targets = synthesize({ deployLambdaTargets: lambdaTarget, deployCodeBuckets: 'my-code' });
    });

    it.each(targetSteps.map((step) => [step]))(
      '%s gets exactly the Lambda actions it calls on the target and its qualified ARNs, the target in DEPLOY_LAMBDA_TARGETS and none in DEPLOY_LAMBDA_TEST_TARGETS',
      (step) => {
        const description = deploymentFunctionDescriptions[step];
        const lambda = only(targets.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:')), `${step} Lambda statement`);
        expect(lambda.Effect).toBe('Allow');
        expect(lambda.Condition).toBeUndefined();
        expect([...actionsOf(lambda)].sort()).toEqual(lambdaActions[step]);
        expect([...asArray(lambda.Resource)].sort()).toEqual([lambdaTarget, `${lambdaTarget}:*`]);
        expect(targets.lookups.environmentOf(description).DEPLOY_LAMBDA_TARGETS).toBe(lambdaTarget);
        expect(targets.lookups.environmentOf(description).DEPLOY_LAMBDA_TEST_TARGETS).toBe('');
      },
    );

    it("no other function holds any Lambda permission (but the security, tests and review starters' invoke of their worker); the starters know the targets, no other function", () => {
      const targetIds = new Set(targetSteps.map((step) => targets.stepIds[step]));
      for (const [id, description] of targets.descriptions()) {
        const env = targets.lookups.environmentOf(description);
        if (targetIds.has(id)) continue;
        expect([description, targets.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:'))]).toEqual([
          description,
          expectedLambdaStatementsOf(targets, description),
        ]);
        expect([description, env.DEPLOY_LAMBDA_TARGETS, env.DEPLOY_LAMBDA_TEST_TARGETS]).toEqual(
          starterDescriptions.includes(description) ? [description, lambdaTarget, ''] : [description, undefined, undefined],
        );
      }
      // Nor any role that is not a function's, but the state machine's invoke of its own steps.
      const onTarget = targets.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes('function:shop'));
      expect(new Set(onTarget.flatMap(({ roles }) => roles))).toEqual(
        new Set(targetSteps.map((step) => targets.roleOf(deploymentFunctionDescriptions[step]))),
      );
    });

    it('deploy may read code packages from the configured bucket only', () => {
      const s3 = only(
        targets.lookups.statementsOf(deploymentFunctionDescriptions.deploy).filter(hasActionWithPrefix('s3:')),
        'deploy S3 statement',
      );
      expect(s3.Effect).toBe('Allow');
      expect([...actionsOf(s3)].sort()).toEqual(['s3:GetObject', 's3:GetObjectVersion']);
      expect(asArray(s3.Resource)).toEqual([objectsOf('my-code')]);
    });

    it('the code bucket is readable by deploy only', () => {
      const onBucket = targets.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes('my-code'));
      expect(new Set(onBucket.flatMap(({ roles }) => roles))).toEqual(new Set([targets.roleOf(deploymentFunctionDescriptions.deploy)]));
    });

    it('refuses a target that is not a function ARN at synth, naming it (an IAM policy of a bare name matches nothing)', () => {
      expect(() => synthesize({ deployLambdaTargets: 'shop' })).toThrow(/deployLambdaTargets takes unqualified function ARNs .*not shop/);
      expect(() => synthesize({ deployLambdaTestTargets: `${lambdaTarget}:live` })).toThrow(/deployLambdaTestTargets/);
    });

    it('the starters still may only start the machine', () => {
      for (const description of starterDescriptions) {
        expect([description, grantsOf(targets.lookups.statementsOf(description).filter(hasActionWithPrefix('states:')))]).toEqual([
          description,
          [`states:StartExecution \${${targets.machineId}}`],
        ]);
      }
    });

    it('several targets and buckets, comma-separated: each one, and its qualified ARNs', () => {
      const other = 'arn:aws:lambda:us-east-1:111122223333:function:billing';
      const several = synthesize({ deployLambdaTargets: ` ${lambdaTarget}, ${other} ,`, deployCodeBuckets: 'my-code,more-code' });
      for (const step of targetSteps) {
        const description = deploymentFunctionDescriptions[step];
        const lambda = only(several.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:')), 'Lambda statement');
        expect([...asArray(lambda.Resource)].sort()).toEqual([lambdaTarget, `${lambdaTarget}:*`, other, `${other}:*`].sort());
        if (step === 'deploy') {
          const s3 = only(several.lookups.statementsOf(description).filter(hasActionWithPrefix('s3:')), 'S3 statement');
          expect(asArray(s3.Resource)).toEqual([objectsOf('more-code'), objectsOf('my-code')]);
        }
        expect(several.lookups.environmentOf(description).DEPLOY_LAMBDA_TARGETS).toBe(`${lambdaTarget},${other}`);
      }
    });
  });

  describe('context deployLambdaTestTargets with deployLambdaTargets', () => {
    let modes: Synthesized;

    beforeAll(() => {
      modes = synthesize(bothModesContext);
    });

    it.each(targetSteps.map((step) => [step]))(
      '%s gets the Lambda actions it calls on every target of both lists (a shared one once) and their qualified ARNs, and each list in its variable',
      (step) => {
        const description = deploymentFunctionDescriptions[step];
        const lambda = only(modes.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:')), `${step} Lambda statement`);
        expect(lambda.Effect).toBe('Allow');
        expect(lambda.Condition).toBeUndefined();
        expect([...actionsOf(lambda)].sort()).toEqual(lambdaActions[step]);
        expect([...asArray(lambda.Resource)].sort()).toEqual(
          [lambdaTarget, `${lambdaTarget}:*`, sharedTarget, `${sharedTarget}:*`, testTarget, `${testTarget}:*`].sort(),
        );
        const env = modes.lookups.environmentOf(description);
        expect(env.DEPLOY_LAMBDA_TARGETS).toBe(`${lambdaTarget},${sharedTarget}`);
        expect(env.DEPLOY_LAMBDA_TEST_TARGETS).toBe(`${testTarget},${sharedTarget}`);
      },
    );

    it('the starters know both lists and hold no Lambda permission; no other function knows either list', () => {
      const targetIds = new Set(targetSteps.map((step) => modes.stepIds[step]));
      for (const [id, description] of modes.descriptions()) {
        if (targetIds.has(id)) continue;
        const env = modes.lookups.environmentOf(description);
        expect([description, env.DEPLOY_LAMBDA_TARGETS, env.DEPLOY_LAMBDA_TEST_TARGETS]).toEqual(
          starterDescriptions.includes(description)
            ? [description, `${lambdaTarget},${sharedTarget}`, `${testTarget},${sharedTarget}`]
            : [description, undefined, undefined],
        );
        expect([description, modes.lookups.statementsOf(description).filter(hasActionWithPrefix('lambda:'))]).toEqual([
          description,
          expectedLambdaStatementsOf(modes, description),
        ]);
      }
    });

    it('only the three provider steps hold a permission on a test-mode target', () => {
      const onTestTarget = modes.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(testTarget));
      expect(new Set(onTestTarget.flatMap(({ roles }) => roles))).toEqual(
        new Set(targetSteps.map((step) => modes.roleOf(deploymentFunctionDescriptions[step]))),
      );
    });
  });
});

describe('cdk-nag AwsSolutions with deployment targets and code buckets', () => {
  it('reports no unacknowledged error or warning', () => {
    expect(synthesized({ deployLambdaTargets: lambdaTarget, deployCodeBuckets: 'my-code' }).violations).toEqual([]);
  });

  it('reports no unacknowledged error or warning with test-mode targets too (their qualified ARNs acknowledged)', () => {
    expect(synthesized(bothModesContext).violations).toEqual([]);
  });
});
