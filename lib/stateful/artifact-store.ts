import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * The artifact bucket (workflow artifacts, findings' patches, test sources and reports, image
 * build trees), its access-log bucket, the key that encrypts them and the provenance signing key.
 * Every one is retained: deleting the stack leaves the data and the keys.
 */
export class ArtifactStore extends Construct {
  readonly artifacts: Bucket;
  readonly artifactKey: Key;
  readonly signingKey: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    const accessLogs = new Bucket(this, 'ArtifactAccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket of the artifact bucket; logging it into itself would loop.',
    });

    this.artifactKey = new Key(this, 'ArtifactKey', { enableKeyRotation: true, description: 'Encrypts workflow artifacts' });
    this.artifacts = new Bucket(this, 'Artifacts', {
      encryption: BucketEncryption.KMS,
      encryptionKey: this.artifactKey,
      bucketKeyEnabled: true,
      enforceSSL: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'artifacts/',
      lifecycleRules: [
        { id: 'expire-artifacts', expiration: Duration.days(90), noncurrentVersionExpiration: Duration.days(7) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.signingKey = new Key(this, 'ProvenanceSigningKey', {
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      description: 'Signs the provenance statements of workflows (ECDSA P-256, SHA-256)',
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
