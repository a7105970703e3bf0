import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import { BuildSpec, ComputeType, LinuxArmBuildImage, Project } from 'aws-cdk-lib/aws-codebuild';
import { OverriddenS3Source } from './overridden-s3-source';
import type { IRepository } from 'aws-cdk-lib/aws-ecr';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';
import { nagResource } from '../nag-finding';
import { encryptProjectWith } from './project-encryption-key';

export const imageProjectDescription = 'Builds the container image of a packaged workflow and pushes it to the image repository';

/** Prefix of the zipped trees the package stage hands to the image build in the artifact bucket. */
export const imageSourcePrefix = 'images/';

/** The commands the project runs on the unzipped tree; IMAGE_TAG comes with each build (the workflow id). */
export const imageBuildSpec = {
  version: '0.2',
  phases: {
    pre_build: {
      'on-failure': 'ABORT',
      commands: [
        'aws ecr get-login-password --region "$AWS_REGION" | docker login --username AWS --password-stdin "${IMAGE_REPOSITORY_URI%%/*}"',
      ],
    },
    build: {
      'on-failure': 'ABORT',
      commands: ['docker build -t "$IMAGE_REPOSITORY_URI:$IMAGE_TAG" .'],
    },
    post_build: {
      commands: ['docker push "$IMAGE_REPOSITORY_URI:$IMAGE_TAG"'],
    },
  },
} as const;

export interface ImageBuildsProps {
  /** The artifact bucket: the package stage puts each tree under `images/`. */
  artifacts: IBucket;
  /** The artifact bucket's key; the project encrypts with it too. */
  artifactKey: IKey;
  /** Where images are pushed (in the core stack: it holds them). */
  repository: IRepository;
}

/**
 * Container images of packaged workflows: the CodeBuild project that builds a tree with docker and pushes `<repository>:<workflow id>` to it.
 */
export class ImageBuilds extends Construct {
  readonly repository: IRepository;
  readonly project: Project;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: ImageBuildsProps,
  ) {
    super(scope, id);

    this.repository = props.repository;

    const logGroup = new LogGroup(this, 'BuildLogs', { retention: RetentionDays.ONE_MONTH });
    this.project = new Project(this, 'Project', {
      description: imageProjectDescription,
      source: new OverriddenS3Source(`${props.artifacts.bucketName}/${imageSourcePrefix}source.zip`),
      buildSpec: BuildSpec.fromObject(imageBuildSpec),
      environment: {
        buildImage: LinuxArmBuildImage.AMAZON_LINUX_2023_STANDARD_3_0,
        computeType: ComputeType.SMALL,
        // docker build needs the Docker daemon.
        privileged: true,
        environmentVariables: { IMAGE_REPOSITORY_URI: { value: this.repository.repositoryUri } },
      },
      timeout: Duration.minutes(30),
      logging: { cloudWatch: { logGroup } },
      grantReportGroupPermissions: false,
    });
    encryptProjectWith(this.project, props.artifactKey);
    this.project.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:GetObjectVersion'],
        resources: [props.artifacts.arnForObjects(`${imageSourcePrefix}*`)],
      }),
    );
    this.project.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetBucketAcl', 's3:GetBucketLocation'], resources: [props.artifacts.bucketArn] }),
    );
    this.repository.grantPush(this.project);

    const stack = Stack.of(this);
    const projectId = stack.getLogicalId(this.project.node.defaultChild as CfnElement);
    Validations.of(this.project).acknowledge(
      { id: 'AwsSolutions-CB3', reason: "docker builds need privileged mode; the project builds only the service's own packaged sources" },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'ecr:GetAuthorizationToken (docker login) supports no resource-level permissions; pushing is limited to the image repository.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${this.artifactObjects()}]`,
        reason: 'The project reads the zipped trees under the images/ prefix of the artifact bucket only; object ARNs need the wildcard.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:/aws/codebuild/<${projectId}>:*]`,
        reason:
          "CodeBuild's default log group of the project, which CDK always grants (the project logs to its own log group): log streams need the wildcard.",
      },
    );
  }

  /** The package function: starts and watches builds of this project, puts trees under `images/`. */
  bindStarter(fn: ServiceFunction): void {
    fn.function.addEnvironment('IMAGE_BUILD_PROJECT', this.project.projectName);
    fn.function.addEnvironment('IMAGE_REPOSITORY_URI', this.repository.repositoryUri);
    fn.allow(
      new PolicyStatement({
        actions: ['codebuild:StartBuild', 'codebuild:BatchGetBuilds', 'codebuild:StopBuild'],
        resources: [this.project.projectArn],
      }),
    );
    fn.allow(new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.props.artifacts.arnForObjects(`${imageSourcePrefix}*`)] }));
    fn.allow(new PolicyStatement({ actions: ['kms:GenerateDataKey'], resources: [this.props.artifactKey.keyArn] }));
    fn.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${this.artifactObjects()}]`,
      reason:
        'The package stage puts the zipped tree of an image build under the images/ prefix of the artifact bucket only; object ARNs need the wildcard.',
    });
  }

  /** `<bucket>.Arn/images/*` as cdk-nag names it. */
  private artifactObjects(): string {
    return nagResource(this, this.props.artifacts.arnForObjects(`${imageSourcePrefix}*`));
  }
}
