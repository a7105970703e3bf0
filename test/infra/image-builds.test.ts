import { imageSourcePrefix } from '../../lib/constructs/image-builds';
import { stageFunctionDescriptions } from '../../lib/constructs/workflow-orchestration';
import { actionsOf, arnOf, asArray, hasActionWithPrefix, joined, only, templateLookups } from './template-helpers';
import { idsOf, synthesized } from './synthesized';

const packageDescription = stageFunctionDescriptions.package;

describe('ImageBuilds', () => {
  const app = synthesized();
  const ids = idsOf(app);
  const template = app.template;
  const lookups = templateLookups(template);
  const repositoryId = ids.imageRepository;
  const projectId = ids.imageProject;
  const bucketId = ids.artifacts;
  const keyId = ids.artifactKey;
  const project = lookups.resources()[projectId]!;
  const projectRoleId: string = project.Properties.ServiceRole['Fn::GetAtt'][0];
  const imageObjects = `\${${bucketId}.Arn}/${imageSourcePrefix}*`;

  const { statementsOfRole, policyStatements } = lookups;
  const descriptions = () =>
    Object.values(template.findResources('AWS::Lambda::Function')).map((fn) => fn.Properties.Description as string);
  const packageRoleId: string = lookups.functionWithDescription(packageDescription).Properties.Role['Fn::GetAtt'][0];

  describe('repository', () => {
    it('scans on push, is encrypted, retained, and keeps the last 100 images and untagged ones for 7 days', () => {
      const repository = lookups.resources()[repositoryId]! as {
        Type: string;
        Properties: Record<string, any>;
        DeletionPolicy?: string;
        UpdateReplacePolicy?: string;
      };
      expect(repository.Type).toBe('AWS::ECR::Repository');
      expect(template.findResources('AWS::ECR::Repository')).toEqual({ [repositoryId]: expect.anything() });
      expect(repository.Properties.ImageScanningConfiguration).toEqual({ ScanOnPush: true });
      expect(['KMS', 'AES256']).toContain(repository.Properties.EncryptionConfiguration.EncryptionType);
      expect([repository.DeletionPolicy, repository.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
      const rules = (
        JSON.parse(repository.Properties.LifecyclePolicy.LifecyclePolicyText) as {
          rules: { selection: Record<string, unknown>; action: { type: string } }[];
        }
      ).rules;
      expect(rules.map((rule) => [rule.selection, rule.action.type])).toEqual(
        expect.arrayContaining([
          [{ tagStatus: 'untagged', countType: 'sinceImagePushed', countNumber: 7, countUnit: 'days' }, 'expire'],
          [{ tagStatus: 'any', countType: 'imageCountMoreThan', countNumber: 100 }, 'expire'],
        ]),
      );
    });
  });

  describe('project', () => {
    it('builds on ARM, privileged for docker, small, within 30 minutes, encrypted with the artifact key', () => {
      expect(template.findResources('AWS::CodeBuild::Project', { Properties: { Description: project.Properties.Description } })).toEqual({
        [projectId]: expect.anything(),
      });
      expect(project.Properties.Environment).toMatchObject({
        Type: 'ARM_CONTAINER',
        ComputeType: 'BUILD_GENERAL1_SMALL',
        PrivilegedMode: true,
        Image: expect.stringMatching(/^aws\/codebuild\/amazonlinux.*aarch64/),
      });
      expect(project.Properties.TimeoutInMinutes).toBe(30);
      expect(project.Properties.EncryptionKey).toEqual(arnOf(keyId));
    });

    it('takes an S3 source (each build names its own zip) and logs to a log group with a retention', () => {
      expect(project.Properties.Source.Type).toBe('S3');
      expect(joined(project.Properties.Source.Location)).toBe(`\${${bucketId}}/${imageSourcePrefix}source.zip`);
      const logGroupId: string = project.Properties.LogsConfig.CloudWatchLogs.GroupName.Ref;
      expect(project.Properties.LogsConfig.CloudWatchLogs.Status).toBe('ENABLED');
      expect(lookups.resources()[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: expect.any(Number) },
      });
    });

    it('logs in to ECR, builds the tree with docker and pushes <repository>:<tag>', () => {
      const spec = JSON.parse(project.Properties.Source.BuildSpec as string) as { phases: Record<string, { commands: string[] }> };
      expect(spec.phases.pre_build?.commands.join('\n')).toMatch(/aws ecr get-login-password .*\| docker login/);
      expect(spec.phases.build?.commands).toEqual(['docker build -t "$IMAGE_REPOSITORY_URI:$IMAGE_TAG" .']);
      expect(spec.phases.post_build?.commands).toEqual(['docker push "$IMAGE_REPOSITORY_URI:$IMAGE_TAG"']);
      const variables = project.Properties.Environment.EnvironmentVariables as { Name: string; Value: unknown }[];
      const uri = JSON.stringify(
        only(
          variables.filter((v) => v.Name === 'IMAGE_REPOSITORY_URI'),
          'IMAGE_REPOSITORY_URI',
        ).Value,
      );
      expect(uri).toContain('.dkr.ecr.');
      expect(uri).toContain(JSON.stringify({ Ref: repositoryId }));
    });

    it('its role pushes to the image repository only, reads images/* of the artifact bucket and uses the artifact key', () => {
      const statements = statementsOfRole(projectRoleId);
      for (const statement of statements) {
        expect(statement.Effect).toBe('Allow');
        for (const action of actionsOf(statement)) expect(action).not.toContain('*');
      }
      const ecr = statements.filter(hasActionWithPrefix('ecr:'));
      const token = only(
        ecr.filter((s) => asArray(s.Resource).includes('*')),
        'ecr statement on *',
      );
      expect(actionsOf(token)).toEqual(['ecr:GetAuthorizationToken']);
      const push = only(
        ecr.filter((s) => s !== token),
        'ecr push statement',
      );
      expect(actionsOf(push).sort()).toEqual([
        'ecr:BatchCheckLayerAvailability',
        'ecr:CompleteLayerUpload',
        'ecr:InitiateLayerUpload',
        'ecr:PutImage',
        'ecr:UploadLayerPart',
      ]);
      expect(asArray(push.Resource)).toEqual([arnOf(repositoryId)]);

      const s3 = statements.filter(hasActionWithPrefix('s3:'));
      const objects = only(
        s3.filter((s) => actionsOf(s).includes('s3:GetObject')),
        's3:GetObject statement',
      );
      expect(asArray(objects.Resource).map(joined)).toEqual([imageObjects]);
      for (const statement of s3)
        expect(actionsOf(statement).filter((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete'))).toEqual([]);
      for (const statement of s3.filter((s) => s !== objects)) expect(asArray(statement.Resource)).toEqual([arnOf(bucketId)]);

      const kms = only(statements.filter(hasActionWithPrefix('kms:')), 'kms statement');
      expect(actionsOf(kms)).toContain('kms:Decrypt');
      expect(asArray(kms.Resource)).toEqual([arnOf(keyId)]);
      expect(statements.filter(hasActionWithPrefix('codebuild:'))).toEqual([]);
    });
  });

  describe('package function', () => {
    it('knows the project and the repository', () => {
      const env = lookups.environmentOf(packageDescription);
      expect(env.IMAGE_BUILD_PROJECT).toEqual({ Ref: projectId });
      const projectUri = (project.Properties.Environment.EnvironmentVariables as { Name: string; Value: unknown }[]).find(
        (v) => v.Name === 'IMAGE_REPOSITORY_URI',
      )?.Value;
      expect(env.IMAGE_REPOSITORY_URI).toEqual(projectUri);
      expect(env.ARTIFACT_BUCKET).toEqual({ Ref: bucketId });
    });

    it('may start and watch builds of the image project only, put zips under images/ and encrypt them with the artifact key', () => {
      const statements = lookups.statementsOf(packageDescription);
      const codebuild = only(statements.filter(hasActionWithPrefix('codebuild:')), 'codebuild statement');
      expect(actionsOf(codebuild).sort()).toEqual(['codebuild:BatchGetBuilds', 'codebuild:StartBuild', 'codebuild:StopBuild']);
      expect(asArray(codebuild.Resource)).toEqual([arnOf(projectId)]);
      const images = only(
        statements.filter((s) => asArray(s.Resource).map(joined).includes(imageObjects)),
        'images/* statement',
      );
      expect(actionsOf(images)).toEqual(['s3:PutObject']);
      expect(asArray(images.Resource).map(joined)).toEqual([imageObjects]);
      const generate = statements.filter((s) => actionsOf(s).includes('kms:GenerateDataKey'));
      expect(generate.flatMap((s) => asArray(s.Resource))).toEqual([arnOf(keyId)]);
      expect(statements.filter(hasActionWithPrefix('ecr:'))).toEqual([]);
    });

    it('no other function knows or reaches the image project, and no function holds an ECR permission', () => {
      const others = descriptions().filter((description) => description !== packageDescription);
      expect(others.length).toBeGreaterThan(0);
      for (const description of others) {
        const env = lookups.environmentOf(description);
        expect([description, env.IMAGE_BUILD_PROJECT, env.IMAGE_REPOSITORY_URI]).toEqual([description, undefined, undefined]);
        const statements = lookups.statementsOf(description);
        const reachesImages = statements.filter(
          (s) =>
            (hasActionWithPrefix('codebuild:')(s) && asArray(s.Resource).some((r) => JSON.stringify(r).includes(projectId))) ||
            asArray(s.Resource).map(joined).includes(imageObjects),
        );
        expect([description, reachesImages]).toEqual([description, []]);
        for (const statement of statements.filter(hasActionWithPrefix('codebuild:')))
          expect([description, asArray(statement.Resource).includes('*')]).toEqual([description, false]);
        expect([description, statements.filter(hasActionWithPrefix('ecr:'))]).toEqual([description, []]);
      }
    });
  });

  describe('in the stack', () => {
    it('has two CodeBuild projects: the image project and the test runner, each with its own role', () => {
      const runnerId = ids.testRunner;
      expect(Object.keys(template.findResources('AWS::CodeBuild::Project')).sort()).toEqual([projectId, runnerId].sort());
      const runnerRoleId: string = lookups.resources()[runnerId]!.Properties.ServiceRole['Fn::GetAtt'][0];
      expect(runnerRoleId).not.toBe(projectRoleId);
    });

    it('only the package stage may start, watch or stop image builds, with StartBuild, BatchGetBuilds and StopBuild only', () => {
      const codebuild = policyStatements().filter(({ statement }) => hasActionWithPrefix('codebuild:')(statement));
      // No CodeBuild grant on every project; the tests function's are on the test runner (test/infra/test-running.test.ts).
      for (const { statement } of codebuild) expect(asArray(statement.Resource)).not.toContain('*');
      const onProject = codebuild.filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${projectId}"`));
      expect(onProject.map(({ roles }) => roles)).toEqual([[packageRoleId]]);
      expect(onProject.flatMap(({ statement }) => actionsOf(statement)).sort()).toEqual([
        'codebuild:BatchGetBuilds',
        'codebuild:StartBuild',
        'codebuild:StopBuild',
      ]);
      // Besides its own log groups (CodeBuild's default one included), its project is named by no other role's statement.
      const naming = policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${projectId}"`));
      for (const { roles, statement } of naming.filter(({ roles }) => !roles.includes(packageRoleId))) {
        expect([roles, actionsOf(statement).every((action) => action.startsWith('logs:'))]).toEqual([[projectRoleId], true]);
      }
    });

    it("no role but the image project's holds an ECR permission or names the repository", () => {
      const ecr = policyStatements().filter(({ statement }) => hasActionWithPrefix('ecr:')(statement));
      expect(new Set(ecr.flatMap(({ roles }) => roles))).toEqual(new Set([projectRoleId]));
      const onRepository = policyStatements().filter(({ statement }) => JSON.stringify(statement.Resource).includes(`"${repositoryId}"`));
      expect(new Set(onRepository.flatMap(({ roles }) => roles))).toEqual(new Set([projectRoleId]));
    });

    it('images/* of the artifact bucket is reached by the package stage (put) and the image project (get) only', () => {
      const onImages = policyStatements().filter(({ statement }) => asArray(statement.Resource).map(joined).includes(imageObjects));
      expect(onImages.map(({ roles, statement }) => [roles, [...actionsOf(statement)].sort()]).sort()).toEqual(
        [
          [[packageRoleId], ['s3:PutObject']],
          [[projectRoleId], ['s3:GetObject', 's3:GetObjectVersion']],
        ].sort(),
      );
    });
  });

  it('cdk-nag AwsSolutions reports nothing unacknowledged on the image constructs or the package function', () => {
    const workflows = app.domainStacks.Workflows as string;
    const ours = [`${app.coreStackName}/Images/`, `${workflows}/Images/`, `${workflows}/Workflows/PackageFunction/`];
    expect(app.violations.filter((v) => ours.some((path) => v.includes(path)))).toEqual([]);
  });
});
