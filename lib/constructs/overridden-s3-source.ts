import { type IProject, Source, type SourceConfig } from 'aws-cdk-lib/aws-codebuild';
import type { Construct } from 'constructs';

/**
 * An S3 source whose location every build overrides (StartBuild `sourceLocationOverride`): the
 * project's own location is a placeholder under the prefix. Unlike `Source.s3` it grants nothing;
 * the construct grants exactly what reading the prefix needs.
 */
export class OverriddenS3Source extends Source {
  readonly type = 'S3';

  constructor(private readonly location: string) {
    super({});
  }

  override bind(scope: Construct, project: IProject): SourceConfig {
    const config = super.bind(scope, project);
    return { ...config, sourceProperty: { ...config.sourceProperty, location: this.location } };
  }
}
