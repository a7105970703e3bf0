import type { CfnProject, Project } from 'aws-cdk-lib/aws-codebuild';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';

/**
 * Has the CodeBuild project encrypt with `key`, set on the resource with exact actions: the
 * `encryptionKey` prop would grant kms:ReEncrypt* and kms:GenerateDataKey*.
 */
export const encryptProjectWith = (project: Project, key: IKey): void => {
  (project.node.defaultChild as CfnProject).encryptionKey = key.keyArn;
  project.addToRolePolicy(
    new PolicyStatement({
      actions: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'],
      resources: [key.keyArn],
    }),
  );
};
