import { readFileSync } from 'node:fs';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { defaultBedrockModelId } from '../../lib/constructs/ai-settings';
import { routeTable as routes } from '../../functions/routes/index';
import { reviewFunctionDescription } from '../../lib/constructs/code-reviews';
import { securityFunctionDescription } from '../../lib/constructs/security-scanning';
import { stageFunctionDescriptions, workflowDefinitionFile } from '../../lib/constructs/workflow-orchestration';
import { imageProjectDescription, imageSourcePrefix } from '../../lib/constructs/image-builds';
import { testArtifactPrefix, testRunnerDescription, testsFunctionDescription } from '../../lib/constructs/test-running';
import { actionsOf, arnOf, asArray, hasActionWithPrefix, joined, only, templateLookups } from './template-helpers';
import { resolvedDefinitionOf } from './state-machine-definition';
import { expectMachineGrantsOf } from './state-machine-access';
import { itRunsFunctionStateMachine, type SynthesizedStateMachine } from './function-state-machine';
import { idsOf, synthesized } from './synthesized';
import { foundationModel, secretPattern } from './worker-grants';

type StageKey = keyof typeof stageFunctionDescriptions;

const stages = Object.keys(stageFunctionDescriptions) as StageKey[];
/** verify asks the AI for its code review of the change. */
const aiStages: StageKey[] = ['intake', 'build', 'verify', 'iterate'];
const repositoryStages: StageKey[] = ['intake', 'build', 'verify', 'iterate', 'package'];
const artifactStages = stages.filter((stage) => stage !== 'control');

/** The contract between `state-machines/workflow.asl.json` and the construct: which placeholder names which stage. */
const placeholderStages: Record<string, StageKey> = {
  WorkflowControlFunctionArn: 'control',
  IntakeFunctionArn: 'intake',
  BuildFunctionArn: 'build',
  VerifyFunctionArn: 'verify',
  ProveFunctionArn: 'prove',
  IterateFunctionArn: 'iterate',
  PackageFunctionArn: 'package',
};

const createWorkflowDescription = 'POST /v1/workflows';
const createReviewDescription = 'POST /v1/reviews';
const cancelWorkflowDescription = 'POST /v1/workflows/{id}/cancel';
/** The dashboard's Cancel workflow button does what the API's cancel does, with the same grant. */
const dashboardCancelDescription = 'POST /dashboard/workflows/{id}/cancel';
const workflowReadDescriptions = ['GET /v1/workflows', 'GET /v1/workflows/{id}', 'GET /v1/workflows/{id}/logs'];

const aslText = readFileSync(workflowDefinitionFile, 'utf8');
const asl = JSON.parse(aslText) as { StartAt: string; States: Record<string, { Type: string; Resource?: string }> };

interface Synthesized extends SynthesizedStateMachine {
  template: Template;
  /** Logical id of each stage function. */
  stageIds: Record<StageKey, string>;
  /** Logical id of the security function, which holds AI settings and reaches the artifact bucket too. */
  securityId: string;
  /** Logical id of the tests function, which holds AI settings and reaches the artifact bucket too. */
  testsId: string;
  /** Logical id of the review function, which holds AI settings and reads the repository. */
  reviewsId: string;
  bucketId: string;
  /** Description of every function, by logical id. */
  descriptions: () => Map<string, string>;
}

const synthesize = (context: Record<string, unknown> = {}): Synthesized => {
  const app = synthesized(context);
  const ids = idsOf(app);
  const template = app.template;
  const lookups = templateLookups(template);
  const stageIds = Object.fromEntries(
    stages.map((stage) => [stage, lookups.functionIdWithDescription(stageFunctionDescriptions[stage])]),
  ) as Record<StageKey, string>;
  // Told by construct, not by a property under test.
  const bucketId = ids.artifacts;
  const machineId = ids.workflowMachine;
  expect(Object.keys(template.findResources('AWS::StepFunctions::StateMachine'))).toContain(machineId);
  const machineRoleId: string = lookups.resources()[machineId]!.Properties.RoleArn['Fn::GetAtt'][0];
  const { policyStatements, statementsOfRole } = lookups;
  const descriptions = () =>
    new Map(Object.entries(template.findResources('AWS::Lambda::Function')).map(([id, fn]) => [id, fn.Properties.Description as string]));
  const securityId = lookups.functionIdWithDescription(securityFunctionDescription);
  const testsId = lookups.functionIdWithDescription(testsFunctionDescription);
  expect(testsId).toBe(ids.testsFunction);
  const reviewsId = lookups.functionIdWithDescription(reviewFunctionDescription);
  expect(reviewsId).toBe(ids.reviewFunction);
  return {
    definitions: app.definitions,
    template,
    lookups,
    stageIds,
    securityId,
    testsId,
    reviewsId,
    bucketId,
    machineId,
    machineRoleId,
    policyStatements,
    statementsOfRole,
    descriptions,
  };
};

const allDescriptions = (s: Synthesized) => [...s.descriptions().values()];

/** Secret ARNs (rendered by `joined`) the function may read; fails on any other Secrets Manager action. */
const readableSecretsOf = (s: Synthesized, description: string): string[] => {
  const statements = s.lookups.statementsOf(description).filter(hasActionWithPrefix('secretsmanager:'));
  for (const statement of statements) {
    expect(statement.Effect).toBe('Allow');
    expect(actionsOf(statement)).toEqual(['secretsmanager:GetSecretValue']);
  }
  return statements.flatMap((statement) => asArray(statement.Resource).map(joined)).sort();
};

describe('workflow orchestration', () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize();
  });

  describe('state machine', () => {
    itRunsFunctionStateMachine(() => ({ ...s, functionIds: s.stageIds }), {
      aslText,
      placeholders: placeholderStages,
      keys: stages,
      count: 'seven',
      noun: 'stage',
    });

    it('gives an execution time for its longest run: every stage at its limit, five fix rounds, and the hour auto_deploy may wait', () => {
      const definition = JSON.parse(resolvedDefinitionOf(s, aslText)) as {
        TimeoutSeconds: number;
        States: Record<string, { TimeoutSeconds?: number }>;
      };
      const limit = (name: string) => definition.States[name]?.TimeoutSeconds ?? 0;
      const maxFixRounds = 5; // max_iterations' upper bound (workflows-bodies.ts)
      const autoDeployWaitSeconds = 3_600; // auto-deployer.ts's maxWaitMs
      const longest =
        ['StartWorkflow', 'Intake', 'Build', 'Verify', 'Prove', 'Package', 'CompleteWorkflow'].reduce((sum, name) => sum + limit(name), 0) +
        maxFixRounds * (limit('Iterate') + limit('Verify') + limit('Prove')) +
        autoDeployWaitSeconds;
      expect(definition.TimeoutSeconds).toBeGreaterThanOrEqual(longest);
    });

    it('keeps the states of the file, in its order, and sends every Task to one of the seven stage functions', () => {
      const definition = JSON.parse(resolvedDefinitionOf(s, aslText)) as typeof asl;
      expect(definition.StartAt).toBe(asl.StartAt);
      expect(Object.keys(definition.States)).toEqual(Object.keys(asl.States));
      expect(Object.values(definition.States).map((state) => state.Type)).toEqual(Object.values(asl.States).map((state) => state.Type));

      const stageIds = new Set(Object.values(s.stageIds));
      const used = new Set<string>();
      for (const [name, state] of Object.entries(definition.States).filter(([, state]) => state.Type === 'Task')) {
        const match = /^\$\{(\w+)\.Arn\}$/.exec(state.Resource ?? '');
        expect([name, match?.[1] !== undefined && stageIds.has(match[1])]).toEqual([name, true]);
        used.add(match![1]!);
      }
      expect(used).toEqual(stageIds);
      // Spot checks of the wiring, state by state.
      const resourceOf = (state: string) => definition.States[state]!.Resource;
      expect(resourceOf('StartWorkflow')).toBe(`\${${s.stageIds.control}.Arn}`);
      expect(resourceOf('Intake')).toBe(`\${${s.stageIds.intake}.Arn}`);
      expect(resourceOf('Build')).toBe(`\${${s.stageIds.build}.Arn}`);
      expect(resourceOf('Verify')).toBe(`\${${s.stageIds.verify}.Arn}`);
      expect(resourceOf('Prove')).toBe(`\${${s.stageIds.prove}.Arn}`);
      expect(resourceOf('Iterate')).toBe(`\${${s.stageIds.iterate}.Arn}`);
      expect(resourceOf('Package')).toBe(`\${${s.stageIds.package}.Arn}`);
      expect(resourceOf('RecordFailure')).toBe(`\${${s.stageIds.control}.Arn}`);
    });
  });

  describe('stage functions', () => {
    const expectedTimeouts: Record<StageKey, number> = {
      control: 60,
      intake: 900,
      build: 900,
      verify: 900,
      prove: 120,
      iterate: 900,
      package: 900,
    };

    it.each(stages.map((stage) => [stage]))('%s has its timeout and /tmp size', (stage) => {
      const properties = s.lookups.functionWithDescription(stageFunctionDescriptions[stage]).Properties;
      expect(properties.Timeout).toBe(expectedTimeouts[stage]);
      if (repositoryStages.includes(stage)) expect(properties.EphemeralStorage).toEqual({ Size: 4096 });
      else expect(properties.EphemeralStorage).toBeUndefined();
    });

    it.each(artifactStages.map((stage) => [stage]))(
      '%s knows the artifact bucket and may get and put objects under workflows/ only',
      (stage) => {
        const description = stageFunctionDescriptions[stage];
        expect(s.lookups.environmentOf(description).ARTIFACT_BUCKET).toEqual({ Ref: s.bucketId });
        const all = s.lookups.statementsOf(description).filter(hasActionWithPrefix('s3:'));
        // Package also puts the zipped tree of an image build under images/ (test/infra/image-builds.test.ts).
        const images = all.filter((statement) =>
          asArray(statement.Resource).map(joined).includes(`\${${s.bucketId}.Arn}/${imageSourcePrefix}*`),
        );
        expect(images.map((statement) => [actionsOf(statement), asArray(statement.Resource).length])).toEqual(
          stage === 'package' ? [[['s3:PutObject'], 1]] : [],
        );
        const statements = all.filter((statement) => !images.includes(statement));
        const objects = only(statements, 'S3 statement');
        expect(objects.Effect).toBe('Allow');
        expect([...actionsOf(objects)].sort()).toEqual(['s3:GetObject', 's3:PutObject']);
        expect(asArray(objects.Resource).map(joined)).toEqual([`\${${s.bucketId}.Arn}/workflows/*`]);
      },
    );

    it('control has no artifact bucket and no S3 permission', () => {
      const description = stageFunctionDescriptions.control;
      expect(s.lookups.environmentOf(description).ARTIFACT_BUCKET).toBeUndefined();
      expect(s.lookups.statementsOf(description).filter(hasActionWithPrefix('s3:'))).toEqual([]);
    });

    it('no role in the stack reaches the artifact bucket except the six artifact stages (workflows/*), the security function (findings/* only), the three patch readers (GetObject on findings/* only), the package stage (images/*), the image project (images/* and the bucket ACL and location), the tests function (tests/* only) and the test runner (tests/* and the bucket ACL and location); none with an S3 wildcard or bucket-wide otherwise', () => {
      const { roleOf } = s.lookups;
      const artifactRoles = new Set(artifactStages.map((stage) => roleOf(stageFunctionDescriptions[stage])));
      const securityRole = roleOf(securityFunctionDescription);
      const testsRole = roleOf(testsFunctionDescription);
      // The image builds (test/infra/image-builds.test.ts): package puts zipped trees under images/, the image project reads them.
      const packageRole = roleOf(stageFunctionDescriptions.package);
      const projectRoleOf = (description: string): string =>
        only(Object.values(s.template.findResources('AWS::CodeBuild::Project', { Properties: { Description: description } })), description)
          .Properties.ServiceRole['Fn::GetAtt'][0];
      const imageProjectRole = projectRoleOf(imageProjectDescription);
      // The test runs (test/infra/test-running.test.ts): the tests function puts sources and reads reports under tests/, the runner reads and writes them.
      const runnerRole = projectRoleOf(testRunnerDescription);
      // The finding patch readers (test/infra/security-scanning.test.ts): the API operation, the finding page and its raw patch.
      const patchReaderRoles = new Set(
        [
          'GET /v1/security/findings/{id}/patch',
          'GET /dashboard/security/findings/{id}',
          'GET /dashboard/security/findings/{id}/patch',
        ].map(roleOf),
      );
      // Different roles (the two dashboard pages may share one).
      expect(new Set([...artifactRoles, securityRole, testsRole, imageProjectRole, runnerRole, ...patchReaderRoles]).size).toBe(
        artifactStages.length + 4 + patchReaderRoles.size,
      );
      const bucketArn = JSON.stringify(arnOf(s.bucketId));
      const under = (prefix: string) => `\${${s.bucketId}.Arn}/${prefix}*`;
      const images = under(imageSourcePrefix);
      const tests = under(testArtifactPrefix);
      expect(testArtifactPrefix).toBe('tests/');
      const touching = s.policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${s.bucketId}"`));
      expect(new Set(touching.flatMap(({ roles }) => roles))).toEqual(
        new Set([...artifactRoles, securityRole, testsRole, imageProjectRole, runnerRole, ...patchReaderRoles]),
      );
      for (const { roles, statement } of s.policyStatements().filter(({ statement }) => hasActionWithPrefix('s3:')(statement))) {
        // One role per policy: a statement is either the security function's or another role's.
        const role = only(roles, 'role of an S3 statement');
        for (const action of actionsOf(statement)) expect(action).not.toContain('*');
        for (const resource of asArray(statement.Resource)) {
          expect(resource).not.toBe('*');
          if (role === imageProjectRole || role === runnerRole) {
            // CodeBuild checks the source bucket's identity (ACL, location) besides reading its prefix.
            if (JSON.stringify(resource) === bucketArn)
              expect([role, actionsOf(statement).sort()]).toEqual([role, ['s3:GetBucketAcl', 's3:GetBucketLocation']]);
            else if (role === imageProjectRole) expect(joined(resource)).toBe(images);
            // The runner reads source zips and writes reports, each under a run's own prefix.
            else
              expect([role, joined(resource), actionsOf(statement).sort()]).toEqual(
                joined(resource).endsWith('/source.zip')
                  ? [role, `${tests}/source.zip`, ['s3:GetObject']]
                  : [role, `${tests}/out/*`, ['s3:PutObject']],
              );
            continue;
          }
          expect([role, resource]).not.toEqual([role, arnOf(s.bucketId)]);
          if (patchReaderRoles.has(role))
            expect([role, joined(resource), actionsOf(statement)]).toEqual([role, under('findings/'), ['s3:GetObject']]);
          else if (role === packageRole && joined(resource) === images) expect(actionsOf(statement)).toEqual(['s3:PutObject']);
          else if (role === testsRole)
            expect([role, joined(resource), actionsOf(statement).sort()]).toEqual([role, tests, ['s3:GetObject', 's3:PutObject']]);
          else expect([role, joined(resource)]).toEqual([role, under(role === securityRole ? 'findings/' : 'workflows/')]);
        }
      }
      // What the security function holds on the bucket: that one statement, on findings/* only.
      const securityOnBucket = only(
        touching.filter(({ roles }) => roles.includes(securityRole)),
        'security statement on the artifact bucket',
      );
      expect(securityOnBucket.roles).toEqual([securityRole]);
      expect(asArray(securityOnBucket.statement.Resource).map(joined)).toEqual([under('findings/')]);
      // The tests function: one statement, on tests/* only.
      const testsOnBucket = only(
        touching.filter(({ roles }) => roles.includes(testsRole)),
        'tests function statement on the artifact bucket',
      );
      expect(testsOnBucket.roles).toEqual([testsRole]);
      expect(asArray(testsOnBucket.statement.Resource).map(joined)).toEqual([tests]);
      // The runner: tests/* objects and the bucket itself (ACL and location), nothing else of the bucket.
      const runnerOnBucket = touching.filter(({ roles }) => roles.includes(runnerRole));
      for (const { roles } of runnerOnBucket) expect(roles).toEqual([runnerRole]);
      expect(runnerOnBucket.flatMap(({ statement }) => asArray(statement.Resource).map(joined)).sort()).toEqual(
        [`\${${s.bucketId}.Arn}`, `${tests}/source.zip`, `${tests}/out/*`].sort(),
      );
      // tests/ is the tests function's and the runner's alone, images/ the package stage's and the image project's alone.
      const rolesOn = (objects: string) =>
        new Set(
          touching.filter(({ statement }) => asArray(statement.Resource).map(joined).includes(objects)).flatMap(({ roles }) => roles),
        );
      expect(rolesOn(tests)).toEqual(new Set([testsRole]));
      expect(rolesOn(`${tests}/source.zip`)).toEqual(new Set([runnerRole]));
      expect(rolesOn(`${tests}/out/*`)).toEqual(new Set([runnerRole]));
      expect(rolesOn(images)).toEqual(new Set([packageRole, imageProjectRole]));
    });

    it('only prove may sign, and only with the signing key; only prove gets SIGNING_KEY_ID', () => {
      const keyId = only(
        Object.keys(s.template.findResources('AWS::KMS::Key', { Properties: { KeyUsage: 'SIGN_VERIFY' } })),
        'signing key',
      );
      const signing = s
        .policyStatements()
        .filter(({ statement }) => actionsOf(statement).some((action) => ['kms:Sign', 'kms:GetPublicKey', 'kms:*'].includes(action)));
      const proveRole: string = s.lookups.functionWithDescription(stageFunctionDescriptions.prove).Properties.Role['Fn::GetAtt'][0];
      const entry = only(signing, 'signing statement');
      expect(entry.roles).toEqual([proveRole]);
      expect([...actionsOf(entry.statement)].sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
      expect(asArray(entry.statement.Resource)).toEqual([arnOf(keyId)]);

      for (const [id, description] of s.descriptions()) {
        const env = s.lookups.environmentOf(description);
        if (id === s.stageIds.prove) expect(env.SIGNING_KEY_ID).toEqual(arnOf(keyId));
        else expect([description, env.SIGNING_KEY_ID]).toEqual([description, undefined]);
      }
    });

    it('the artifact stages may use the artifact key for their objects, and no role holds a kms wildcard', () => {
      const artifactKeyId: string =
        s.lookups.resources()[s.bucketId]!.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
          .KMSMasterKeyID['Fn::GetAtt'][0];
      for (const stage of artifactStages) {
        const kms = s.lookups.statementsOf(stageFunctionDescriptions[stage]).filter((st) => actionsOf(st).includes('kms:Decrypt'));
        expect(asArray(only(kms, `${stage} kms:Decrypt statement`).Resource)).toEqual([arnOf(artifactKeyId)]);
      }
      for (const { statement } of s.policyStatements().filter(({ statement }) => hasActionWithPrefix('kms:')(statement))) {
        for (const action of actionsOf(statement)) expect(action).not.toContain('*');
        expect(asArray(statement.Resource)).not.toContain('*');
      }
    });

    it('only intake, build, verify, iterate, the security, tests and review functions may invoke a model: bedrock:InvokeModel on the configured foundation model', () => {
      const aiIds = new Set([...aiStages.map((stage) => s.stageIds[stage]), s.securityId, s.testsId, s.reviewsId]);
      expect(aiIds.size).toBe(aiStages.length + 3);
      for (const [id, description] of s.descriptions()) {
        const bedrock = s.lookups.statementsOf(description).filter(hasActionWithPrefix('bedrock:'));
        if (!aiIds.has(id)) {
          expect([description, bedrock]).toEqual([description, []]);
          continue;
        }
        const statement = only(bedrock, `${description} bedrock statement`);
        expect(statement.Effect).toBe('Allow');
        expect(actionsOf(statement)).toEqual(['bedrock:InvokeModel']);
        expect(asArray(statement.Resource).map(joined)).toEqual([foundationModel(defaultBedrockModelId)]);
      }
    });

    it('AI_PROVIDERS and BEDROCK_MODEL_ID are set on the AI stages, the security, tests and review functions, createWorkflow and createReview, on no function outside those and cancelWorkflow', () => {
      const expected = new Set([
        ...aiStages.map((stage) => stageFunctionDescriptions[stage]),
        securityFunctionDescription,
        testsFunctionDescription,
        reviewFunctionDescription,
        createWorkflowDescription,
        createReviewDescription,
      ]);
      expect(expected.size).toBe(aiStages.length + 5);
      for (const description of allDescriptions(s)) {
        const env = s.lookups.environmentOf(description);
        if (expected.has(description)) {
          expect([description, env.AI_PROVIDERS, env.BEDROCK_MODEL_ID]).toEqual([description, 'bedrock', defaultBedrockModelId]);
        } else if (description !== cancelWorkflowDescription) {
          expect([description, env.AI_PROVIDERS, env.BEDROCK_MODEL_ID]).toEqual([description, undefined, undefined]);
        }
      }
    });

    it('cancelWorkflow carries no AI settings: only create checks the provider', () => {
      const env = s.lookups.environmentOf(cancelWorkflowDescription);
      expect([env.AI_PROVIDERS, env.BEDROCK_MODEL_ID]).toEqual([undefined, undefined]);
    });

    it('without repositoryTokenSecret no function knows a repository token and no role reads any secret', () => {
      for (const description of allDescriptions(s)) {
        expect([description, s.lookups.environmentOf(description).REPOSITORY_TOKEN_SECRET]).toEqual([description, undefined]);
      }
      expect(s.policyStatements().filter(({ statement }) => hasActionWithPrefix('secretsmanager:')(statement))).toEqual([]);
    });
  });

  describe('context settings', () => {
    it('with a configured bedrockModelId the AI stages, the security function and the tests function get that model and may invoke that model only', () => {
      const modelId = 'amazon.nova-lite-v1:0';
      const custom = synthesize({ bedrockModelId: modelId });
      for (const description of [
        ...aiStages.map((stage) => stageFunctionDescriptions[stage]),
        securityFunctionDescription,
        testsFunctionDescription,
        reviewFunctionDescription,
      ]) {
        expect(custom.lookups.environmentOf(description).BEDROCK_MODEL_ID).toBe(modelId);
        const statement = only(custom.lookups.statementsOf(description).filter(hasActionWithPrefix('bedrock:')), 'bedrock statement');
        expect(asArray(statement.Resource).map(joined)).toEqual([foundationModel(modelId)]);
      }
      expect(custom.lookups.environmentOf(createWorkflowDescription).BEDROCK_MODEL_ID).toBe(modelId);
    });

    it('with aiProviders=bedrock,anthropic and anthropicApiKeySecret the AI stages, the security function and the tests function may read that secret only', () => {
      const anthropic = synthesize({ aiProviders: 'bedrock,anthropic', anthropicApiKeySecret: 'my/anthropic' });
      const aiIds = new Set([
        ...aiStages.map((stage) => anthropic.stageIds[stage]),
        anthropic.securityId,
        anthropic.testsId,
        anthropic.reviewsId,
      ]);
      expect(aiIds.size).toBe(aiStages.length + 3);
      for (const [id, description] of anthropic.descriptions()) {
        const env = anthropic.lookups.environmentOf(description);
        if (aiIds.has(id)) {
          expect(env).toMatchObject({
            AI_PROVIDERS: 'bedrock,anthropic',
            BEDROCK_MODEL_ID: defaultBedrockModelId,
            ANTHROPIC_API_KEY_SECRET: 'my/anthropic',
          });
          expect(readableSecretsOf(anthropic, description)).toEqual([secretPattern('my/anthropic')]);
          // Bedrock stays offered next to Anthropic.
          expect(anthropic.lookups.statementsOf(description).filter(hasActionWithPrefix('bedrock:'))).toHaveLength(1);
        } else {
          expect([description, readableSecretsOf(anthropic, description)]).toEqual([description, []]);
        }
      }
      // The create route checks which providers are configured (by name only): it reads no secret.
      expect(anthropic.lookups.environmentOf(createWorkflowDescription)).toMatchObject({
        AI_PROVIDERS: 'bedrock,anthropic',
        ANTHROPIC_API_KEY_SECRET: 'my/anthropic',
      });
    });

    it('with aiProviders=local no role holds any Bedrock permission and no function a model id', () => {
      const local = synthesize({ aiProviders: 'local' });
      expect(local.policyStatements().filter(({ statement }) => hasActionWithPrefix('bedrock:')(statement))).toEqual([]);
      for (const description of allDescriptions(local))
        expect([description, local.lookups.environmentOf(description).BEDROCK_MODEL_ID]).toEqual([description, undefined]);
      for (const stage of aiStages) expect(local.lookups.environmentOf(stageFunctionDescriptions[stage]).AI_PROVIDERS).toBe('local');
      expect(local.lookups.environmentOf(securityFunctionDescription).AI_PROVIDERS).toBe('local');
      expect(local.lookups.environmentOf(testsFunctionDescription).AI_PROVIDERS).toBe('local');
      expect(local.lookups.environmentOf(reviewFunctionDescription).AI_PROVIDERS).toBe('local');
      expect(local.lookups.environmentOf(createWorkflowDescription).AI_PROVIDERS).toBe('local');
      expect(local.lookups.environmentOf(createReviewDescription).AI_PROVIDERS).toBe('local');
    });

    it('with repositoryTokenSecret the repository stages, the security function and the tests function know it and may read that secret only; no other function', () => {
      const repository = synthesize({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: 'github.com/acme' });
      const repositoryIds = new Set([
        ...repositoryStages.map((stage) => repository.stageIds[stage]),
        repository.securityId,
        repository.testsId,
        repository.reviewsId,
      ]);
      expect(repositoryIds.size).toBe(repositoryStages.length + 3);
      for (const [id, description] of repository.descriptions()) {
        const env = repository.lookups.environmentOf(description);
        if (repositoryIds.has(id)) {
          expect([env.REPOSITORY_TOKEN_SECRET, env.REPOSITORY_TOKEN_HOSTS]).toEqual(['repo/token', 'github.com/acme']);
          expect(readableSecretsOf(repository, description)).toEqual([secretPattern('repo/token')]);
        } else {
          expect([
            description,
            env.REPOSITORY_TOKEN_SECRET,
            env.REPOSITORY_TOKEN_HOSTS,
            readableSecretsOf(repository, description),
          ]).toEqual([description, undefined, undefined, []]);
        }
      }
    });

    it('with both secrets each function reads exactly the secrets of its own concerns', () => {
      const both = synthesize({
        aiProviders: 'bedrock,anthropic',
        anthropicApiKeySecret: 'my/anthropic',
        repositoryTokenSecret: 'repo/token',
        repositoryTokenHosts: 'github.com/acme',
      });
      for (const stage of stages) {
        const expected = [
          ...(aiStages.includes(stage) ? [secretPattern('my/anthropic')] : []),
          ...(repositoryStages.includes(stage) ? [secretPattern('repo/token')] : []),
        ].sort();
        expect([stage, readableSecretsOf(both, stageFunctionDescriptions[stage])]).toEqual([stage, expected]);
      }
      // The security function remediates with the AI and checks out (and pushes to) the repository.
      expect(readableSecretsOf(both, securityFunctionDescription)).toEqual(
        [secretPattern('my/anthropic'), secretPattern('repo/token')].sort(),
      );
      // The tests function generates tests with the AI from a checkout of the repository.
      expect(readableSecretsOf(both, testsFunctionDescription)).toEqual(
        [secretPattern('my/anthropic'), secretPattern('repo/token')].sort(),
      );
      // The review function reviews with the AI a change it fetches from the repository.
      expect(readableSecretsOf(both, reviewFunctionDescription)).toEqual(
        [secretPattern('my/anthropic'), secretPattern('repo/token')].sort(),
      );
      // No other function reads either secret.
      const readers = new Set([
        ...stages.map((stage) => stageFunctionDescriptions[stage]),
        securityFunctionDescription,
        testsFunctionDescription,
        reviewFunctionDescription,
      ]);
      for (const description of allDescriptions(both).filter((d) => !readers.has(d)))
        expect([description, readableSecretsOf(both, description)]).toEqual([description, []]);
    });
  });

  describe('artifact bucket', () => {
    it('is encrypted with a rotated customer managed key and a bucket key, versioned, private and retained', () => {
      const bucket = s.lookups.resources()[s.bucketId]! as {
        Properties: Record<string, any>;
        DeletionPolicy?: string;
        UpdateReplacePolicy?: string;
      };
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.UpdateReplacePolicy).toBe('Retain');
      const encryption = only(
        bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration as Record<string, any>[],
        'encryption rule',
      );
      expect(encryption).toEqual({
        BucketKeyEnabled: true,
        ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } },
      });
      const keyId: string = encryption.ServerSideEncryptionByDefault.KMSMasterKeyID['Fn::GetAtt'][0];
      expect(s.lookups.resources()[keyId]).toMatchObject({ Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true } });
      expect(s.lookups.resources()[keyId]!.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
      expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    });

    it('denies every request without TLS in its bucket policy', () => {
      const policy = only(
        Object.values(s.template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: s.bucketId } } })),
        'artifact bucket policy',
      );
      expect(policy.Properties.PolicyDocument.Statement).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            Resource: expect.arrayContaining([arnOf(s.bucketId), { 'Fn::Join': ['', [arnOf(s.bucketId), '/*']] }]),
          }),
        ]),
      );
    });

    it('expires artifacts and noncurrent versions and aborts incomplete multipart uploads', () => {
      const rules = s.lookups.resources()[s.bucketId]!.Properties.LifecycleConfiguration.Rules as Record<string, any>[];
      for (const rule of rules) expect(rule.Status).toBe('Enabled');
      expect(rules.some((rule) => typeof rule.ExpirationInDays === 'number' && rule.ExpirationInDays > 0)).toBe(true);
      expect(
        rules.some(
          (rule) =>
            typeof rule.NoncurrentVersionExpiration?.NoncurrentDays === 'number' && rule.NoncurrentVersionExpiration.NoncurrentDays > 0,
        ),
      ).toBe(true);
      expect(rules.some((rule) => typeof rule.AbortIncompleteMultipartUpload?.DaysAfterInitiation === 'number')).toBe(true);
      expect(rules).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ ExpirationInDays: 90, NoncurrentVersionExpiration: { NoncurrentDays: 7 } }),
          expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        ]),
      );
    });

    it('sends its server access logs to a separate, private, TLS-only bucket', () => {
      const logging = s.lookups.resources()[s.bucketId]!.Properties.LoggingConfiguration;
      expect(logging).toEqual({ DestinationBucketName: { Ref: expect.any(String) }, LogFilePrefix: expect.any(String) });
      const logsId: string = logging.DestinationBucketName.Ref;
      expect(logsId).not.toBe(s.bucketId);
      expect(s.lookups.resources()[logsId]).toMatchObject({
        Type: 'AWS::S3::Bucket',
        Properties: {
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
        },
      });
      s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logsId },
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    });
  });

  it('the signing key is an asymmetric ECC_NIST_P256 SIGN_VERIFY key', () => {
    const keys = Object.values(s.template.findResources('AWS::KMS::Key', { Properties: { KeyUsage: 'SIGN_VERIFY' } }));
    expect(only(keys, 'signing key').Properties).toMatchObject({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
  });

  describe('route functions', () => {
    const executionsArn = () => `arn:\${AWS::Partition}:states:\${AWS::Region}:\${AWS::AccountId}:execution:\${${s.machineId}.Name}:*`;

    it("the route table marks createWorkflow as the starter, cancelWorkflow and the dashboard's cancel as the stoppers", () => {
      expect(
        routes
          .filter((route) => route.workflowExecutions)
          .map((route) => `${route.workflowExecutions} ${route.method} ${route.path}`)
          .sort(),
      ).toEqual([`start ${createWorkflowDescription}`, `stop ${cancelWorkflowDescription}`, `stop ${dashboardCancelDescription}`].sort());
    });

    it.each([
      [createWorkflowDescription, 'start'],
      [cancelWorkflowDescription, 'stop'],
      [dashboardCancelDescription, 'stop'],
    ])('%s knows the machine and may only %s its executions', (description, what) => {
      expectMachineGrantsOf(s.lookups, description, {
        arnVariable: 'WORKFLOW_STATE_MACHINE_ARN',
        machineId: s.machineId,
        grants: what === 'start' ? [`states:StartExecution \${${s.machineId}}`] : [`states:StopExecution ${executionsArn()}`],
      });
    });

    it('no other function knows the machine or holds a Step Functions permission, the GET workflow routes included', () => {
      for (const description of workflowReadDescriptions) expect(allDescriptions(s)).toContain(description);
      const starters = new Set([createWorkflowDescription, cancelWorkflowDescription, dashboardCancelDescription]);
      for (const description of allDescriptions(s).filter((d) => !starters.has(d))) {
        expect([description, s.lookups.environmentOf(description).WORKFLOW_STATE_MACHINE_ARN]).toEqual([description, undefined]);
        const workflowMachineGrants = s.lookups
          .statementsOf(description)
          .filter(hasActionWithPrefix('states:'))
          .filter((statement) => JSON.stringify(statement.Resource).includes(s.machineId));
        expect([description, workflowMachineGrants]).toEqual([description, []]);
      }
    });
  });

  it('outputs the state machine ARN and the artifact bucket name', () => {
    s.template.hasOutput('WorkflowStateMachineArn', { Value: { Ref: s.machineId } });
    s.template.hasOutput('ArtifactBucketName', { Value: { Ref: s.bucketId } });
  });
});
