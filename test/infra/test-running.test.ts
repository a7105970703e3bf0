import { routes } from '../../functions/routes/index';
import { defaultBedrockModelId } from '../../lib/constructs/ai-settings';
import { testArtifactPrefix, testsFunctionDescription } from '../../lib/constructs/test-running';
import { actionsOf, arnOf, hasActionWithPrefix, joined, only } from './template-helpers';
import { synthesized } from './synthesized';
import { artifactObjectGrants, foundationModel, grantsOf, secretPattern, workerFunctionGrants } from './worker-grants';
import { expectInvokedAsynchronously, expectReachedByNoRouteOrEventSource, synthesizedWorker } from './async-worker';
import { expectOnlyStartersKnowAndInvoke, expectStarterOnlyInvokes } from './worker-starters';
import { artifactEnvironment, serviceEnvironment } from './function-environment';

const generateDescription = 'POST /v1/tests/generate';
const runDescription = 'POST /v1/tests/run';
const starterDescriptions = [generateDescription, runDescription];
const readDescriptions = ['GET /v1/tests/{id}', 'GET /v1/tests/{id}/results'];

const synthesize = (context: Record<string, unknown> = {}) => {
  const worker = synthesizedWorker(context, testsFunctionDescription, (ids) => ids.testsFunction);
  const projectId = worker.ids.testRunner;
  const project = worker.lookups.resources()[projectId]!;
  expect(project.Type).toBe('AWS::CodeBuild::Project');
  const invokeConfig = only(
    Object.values(
      worker.template.findResources('AWS::Lambda::EventInvokeConfig', { Properties: { FunctionName: { Ref: worker.functionId } } }),
    ),
    'event invoke config of the tests function',
  );
  return {
    ...worker,
    projectId,
    project,
    projectRoleId: project.Properties.ServiceRole['Fn::GetAtt'][0] as string,
    queueId: invokeConfig.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0] as string,
    bucketId: worker.ids.artifacts,
    artifactKeyId: worker.ids.artifactKey,
  };
};

type Synthesized = ReturnType<typeof synthesize>;

/** What the tests function may do with the default AI settings: its logs and traces, its failure queue, the table, the model, the runner, tests/* and the artifact key. */
const baseGrantsOf = (s: Synthesized): string[] =>
  [
    ...workerFunctionGrants(s),
    `bedrock:InvokeModel ${foundationModel(defaultBedrockModelId)}`,
    `codebuild:BatchGetBuilds \${${s.projectId}.Arn}`,
    `codebuild:StartBuild \${${s.projectId}.Arn}`,
    `codebuild:StopBuild \${${s.projectId}.Arn}`,
    ...artifactObjectGrants(s, 'tests/'),
  ].sort();

describe('test running', () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize();
  });

  describe('the tests function', () => {
    it('runs 15 minutes with 4 GiB of /tmp', () => {
      expect(s.properties.Timeout).toBe(900);
      expect(s.properties.EphemeralStorage).toEqual({ Size: 4096 });
    });

    it('knows the table, the runner project, the artifact bucket and its key, and the AI settings; nothing else', () => {
      expect(testArtifactPrefix).toBe('tests/');
      expect(s.environment()).toEqual({
        ...serviceEnvironment(s.tableId),
        ...artifactEnvironment(s),
        TEST_RUN_PROJECT: { Ref: s.projectId },
        AI_PROVIDERS: 'bedrock',
        BEDROCK_MODEL_ID: defaultBedrockModelId,
      });
    });

    it('may start and read builds of its project only, get and put objects under tests/ only, and decrypt and generate data keys with the artifact key; nothing else', () => {
      for (const statement of s.statements()) expect(statement.Effect).toBe('Allow');
      expect(grantsOf(s.statements())).toEqual(baseGrantsOf(s));
      expect(grantsOf(s.statements().filter(hasActionWithPrefix('codebuild:')))).toEqual([
        `codebuild:BatchGetBuilds \${${s.projectId}.Arn}`,
        `codebuild:StartBuild \${${s.projectId}.Arn}`,
        `codebuild:StopBuild \${${s.projectId}.Arn}`,
      ]);
      expect(grantsOf(s.statements().filter(hasActionWithPrefix('s3:')))).toEqual([
        `s3:GetObject \${${s.bucketId}.Arn}/tests/*`,
        `s3:PutObject \${${s.bucketId}.Arn}/tests/*`,
      ]);
      expect(grantsOf(s.statements().filter(hasActionWithPrefix('kms:')))).toEqual([
        `kms:Decrypt \${${s.artifactKeyId}.Arn}`,
        `kms:GenerateDataKey \${${s.artifactKeyId}.Arn}`,
      ]);
      for (const prefix of ['states:', 'lambda:', 'secretsmanager:', 'ecr:', 'iam:', 'ses:'])
        expect([prefix, s.statements().filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
    });

    it('with repositoryTokenSecret knows that secret and may read it, and only it', () => {
      const repository = synthesize({ repositoryTokenSecret: 'repo/token', repositoryTokenHosts: 'github.com/acme' });
      expect(repository.environment()).toMatchObject({ REPOSITORY_TOKEN_SECRET: 'repo/token', REPOSITORY_TOKEN_HOSTS: 'github.com/acme' });
      expect(grantsOf(repository.statements())).toEqual(
        [...baseGrantsOf(repository), `secretsmanager:GetSecretValue ${secretPattern('repo/token')}`].sort(),
      );
    });

    it('with aiProviders=bedrock,anthropic and anthropicApiKeySecret gets those settings and may read that secret too', () => {
      const anthropic = synthesize({ aiProviders: 'bedrock,anthropic', anthropicApiKeySecret: 'my/anthropic', anthropicModel: 'claude-x' });
      expect(anthropic.environment()).toMatchObject({
        AI_PROVIDERS: 'bedrock,anthropic',
        BEDROCK_MODEL_ID: defaultBedrockModelId,
        ANTHROPIC_API_KEY_SECRET: 'my/anthropic',
        ANTHROPIC_MODEL: 'claude-x',
      });
      expect(grantsOf(anthropic.statements())).toEqual(
        [...baseGrantsOf(anthropic), `secretsmanager:GetSecretValue ${secretPattern('my/anthropic')}`].sort(),
      );
    });

    it('with aiProviders=local has no model, no Bedrock permission and no secret', () => {
      const local = synthesize({ aiProviders: 'local' });
      expect(local.environment().AI_PROVIDERS).toBe('local');
      expect(local.environment().BEDROCK_MODEL_ID).toBeUndefined();
      expect(grantsOf(local.statements())).toEqual(baseGrantsOf(local).filter((grant) => !grant.startsWith('bedrock:')));
    });

    it('is invoked asynchronously: no retry, events up to 6 hours old, then its failure queue, which only it sends to', () => {
      expectInvokedAsynchronously(s, s.queueId, 0);
      const queue = s.lookups.resources()[s.queueId]!;
      expect(queue.Type).toBe('AWS::SQS::Queue');
      expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      // Only the tests function sends to it (a consumer of the queue may receive, never send).
      const sendersToQueue = s
        .policyStatements()
        .filter(
          ({ statement }) =>
            JSON.stringify(statement.Resource).includes(`"${s.queueId}"`) && actionsOf(statement).includes('sqs:SendMessage'),
        );
      expect(new Set(sendersToQueue.flatMap(({ roles }) => roles))).toEqual(new Set([s.roleId]));
    });

    it('is reached by no API route, event source or other service principal', () => {
      expectReachedByNoRouteOrEventSource(s);
    });
  });

  describe('the CodeBuild runner project', () => {
    const buildSpecOf = (synthesized: Synthesized) =>
      JSON.parse(synthesized.project.Properties.Source.BuildSpec as string) as {
        version: string;
        env: { shell: string };
        phases: Record<string, { commands: string[] }>;
        artifacts: { 'base-directory': string; files: string[] };
      };

    it('builds on the Amazon Linux 2023 ARM image, unprivileged, from an S3 source under tests/, encrypted with the artifact key, for at most 20 minutes', () => {
      expect(s.project.Properties).toMatchObject({
        Description: 'Runs untrusted test code in isolation; reaches nothing of the service',
        Environment: {
          Type: 'ARM_CONTAINER',
          Image: 'aws/codebuild/amazonlinux-aarch64-standard:3.0',
          ComputeType: 'BUILD_GENERAL1_SMALL',
          PrivilegedMode: false,
        },
        EncryptionKey: arnOf(s.artifactKeyId),
        TimeoutInMinutes: 20,
        Artifacts: { Type: 'NO_ARTIFACTS' },
      });
      // Every build overrides the location (StartBuild sourceLocationOverride); the project's own is a placeholder under tests/.
      const { BuildSpec: _spec, ...source } = s.project.Properties.Source as Record<string, unknown>;
      expect({ ...source, Location: joined(source.Location) }).toEqual({ Type: 'S3', Location: `\${${s.bucketId}}/tests/source.zip` });
      expect(s.project.Properties.Environment.EnvironmentVariables).toBeUndefined();
    });

    it('logs to its own log group, kept a month', () => {
      expect(s.project.Properties.LogsConfig).toEqual({ CloudWatchLogs: { Status: 'ENABLED', GroupName: { Ref: expect.any(String) } } });
      const logGroupId = s.project.Properties.LogsConfig.CloudWatchLogs.GroupName.Ref as string;
      expect(s.lookups.resources()[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    });

    it("runs each framework with its machine reporter into /tmp/out, under `timeout`, recording the exit code; /tmp/out is the build's artifact", () => {
      const spec = buildSpecOf(s);
      expect(spec.version).toBe('0.2');
      expect(spec.env.shell).toBe('bash');
      expect(spec.artifacts).toEqual({ 'base-directory': '/tmp/out', files: ['**/*'] });
      expect(spec.phases.install!.commands[0]).toBe('mkdir -p /tmp/out');
      const build = spec.phases.build!.commands.join('\n');
      expect(build).toContain('case "$FRAMEWORK" in');
      expect(build).toContain('jest) set -- npx --yes jest --ci --json --outputFile=/tmp/out/report.json ;;');
      expect(build).toContain('vitest) set -- npx --yes vitest run --reporter=junit --outputFile=/tmp/out/report.xml ;;');
      expect(build).toContain('node:test) set -- node --test --test-reporter=junit --test-reporter-destination=/tmp/out/report.xml ;;');
      // Test files arrive one per line and become an array: a path is never re-parsed by the shell.
      expect(build).toContain('while IFS= read -r file; do');
      expect(build).toContain('pytest) set -- python3 -m pytest --junitxml=/tmp/out/report.xml -p no:cacheprovider -q ;;');
      expect(build).toContain(
        'timeout --kill-after=10 "$TEST_TIMEOUT_SECONDS" "$@" "${FILES[@]}" > /tmp/out/output.log 2>&1; echo $? > /tmp/out/exit-code',
      );
      // Installs never run the repository's lifecycle scripts.
      const install = spec.phases.install!.commands.join('\n');
      expect(install).toContain('npm ci --ignore-scripts || npm install --ignore-scripts');
      expect(install).not.toMatch(/npm (ci|install)(?! --ignore-scripts)/);
    });

    it("its role is CodeBuild's alone, with no managed policy", () => {
      const role = s.lookups.resources()[s.projectRoleId]!;
      expect(role.Type).toBe('AWS::IAM::Role');
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'codebuild.amazonaws.com' } },
      ]);
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.Policies).toBeUndefined();
    });

    it('reaches nothing of the service: its role may get tests/*/source.zip and put tests/*/out/* objects, read the bucket location and ACL, use the artifact key (no wildcard action), and write its own logs; nothing else', () => {
      const statements = s.statementsOfRole(s.projectRoleId);
      const logGroupId = s.project.Properties.LogsConfig.CloudWatchLogs.GroupName.Ref as string;
      const defaultLogGroup = `arn:\${AWS::Partition}:logs:\${AWS::Region}:\${AWS::AccountId}:log-group:/aws/codebuild/\${${s.projectId}}`;
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        expect(statement.Condition).toBeUndefined();
      }
      expect(grantsOf(statements)).toEqual(
        [
          `logs:CreateLogStream \${${logGroupId}.Arn}`,
          `logs:PutLogEvents \${${logGroupId}.Arn}`,
          `logs:CreateLogGroup ${defaultLogGroup}`,
          `logs:CreateLogGroup ${defaultLogGroup}:*`,
          `logs:CreateLogStream ${defaultLogGroup}`,
          `logs:CreateLogStream ${defaultLogGroup}:*`,
          `logs:PutLogEvents ${defaultLogGroup}`,
          `logs:PutLogEvents ${defaultLogGroup}:*`,
          `kms:Decrypt \${${s.artifactKeyId}.Arn}`,
          `kms:DescribeKey \${${s.artifactKeyId}.Arn}`,
          `kms:Encrypt \${${s.artifactKeyId}.Arn}`,
          `kms:GenerateDataKey \${${s.artifactKeyId}.Arn}`,
          // Bucket metadata only (CodeBuild checks the source and artifact bucket): no object of it.
          `s3:GetBucketAcl \${${s.bucketId}.Arn}`,
          `s3:GetBucketLocation \${${s.bucketId}.Arn}`,
          // A run's source zip and its report, each under the run's own random prefix; no list.
          `s3:GetObject \${${s.bucketId}.Arn}/tests/*/source.zip`,
          `s3:PutObject \${${s.bucketId}.Arn}/tests/*/out/*`,
        ].sort(),
      );
      // No report groups: results come from the frameworks' reports under tests/.
      expect(statements.filter(hasActionWithPrefix('codebuild:'))).toEqual([]);
      for (const prefix of ['dynamodb:', 'secretsmanager:', 'lambda:', 'states:', 'ecr:', 'sqs:', 'bedrock:', 'iam:', 'ses:', 'sts:']) {
        expect([prefix, statements.filter(hasActionWithPrefix(prefix))]).toEqual([prefix, []]);
      }
      const everything = JSON.stringify(statements);
      for (const id of [s.tableId, s.functionId, s.queueId]) expect([id, everything.includes(`"${id}"`)]).toEqual([id, false]);
    });

    it('is started and read by the tests function only, and its role is named by no other policy', () => {
      const onProject = s
        .policyStatements()
        .filter(
          ({ statement }) =>
            hasActionWithPrefix('codebuild:')(statement) &&
            JSON.stringify(statement.Resource).includes(`"${s.projectId}"`) &&
            actionsOf(statement).some((a) => a === 'codebuild:StartBuild' || a === 'codebuild:BatchGetBuilds'),
        );
      expect(new Set(onProject.flatMap(({ roles }) => roles))).toEqual(new Set([s.roleId]));
      const namingRole = Object.entries(s.template.toJSON().Resources as Record<string, { Type: string; Properties?: unknown }>)
        .filter(([id]) => id !== s.projectId)
        .filter(
          ([, resource]) =>
            resource.Type !== 'AWS::IAM::Policy' ||
            !JSON.stringify((resource.Properties as { Roles?: unknown }).Roles ?? []).includes(`"${s.projectRoleId}"`),
        )
        .filter(([, resource]) => JSON.stringify(resource.Properties ?? {}).includes(`"${s.projectRoleId}"`))
        .map(([id]) => id);
      expect(namingRole).toEqual([]);
    });
  });

  describe('route functions', () => {
    it('the route table marks exactly the generate and run routes as starting test jobs', () => {
      expect(
        routes
          .filter((route) => route.startsTestJobs)
          .map((route) => `${route.method} ${route.path}`)
          .sort(),
      ).toEqual([...starterDescriptions].sort());
    });

    it.each(starterDescriptions.map((description) => [description]))(
      '%s knows the tests function and may only invoke it',
      (description) => {
        // Starting a job is all: the job's own permissions stay with the tests function.
        expectStarterOnlyInvokes(s, description, 'TESTS_FUNCTION_NAME', [
          'codebuild:',
          's3:',
          'kms:',
          'bedrock:',
          'secretsmanager:',
          'states:',
        ]);
      },
    );

    it('no other function knows the tests function or may invoke it, the GET test routes included', () => {
      // Of every role in the stack, only the two starters' hold a permission on the tests function.
      expectOnlyStartersKnowAndInvoke(s, 'TESTS_FUNCTION_NAME', starterDescriptions, readDescriptions);
      for (const description of readDescriptions) {
        expect([description, s.lookups.statementsOf(description).filter(hasActionWithPrefix('codebuild:'))]).toEqual([description, []]);
      }
    });
  });
});

describe('cdk-nag AwsSolutions with the tests function fully configured', () => {
  const context = {
    repositoryTokenSecret: 'repo/token',
    repositoryTokenHosts: 'github.com/acme',
    aiProviders: 'bedrock,anthropic',
    anthropicApiKeySecret: 'my/anthropic',
  };
  it('reports no unacknowledged error or warning', () => {
    expect(synthesized(context).violations).toEqual([]);
  });
});
