import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Size, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { findingArtifactPrefix } from '../../functions/core/security/remediate';
import { nagResource } from '../nag-finding';
import { functionCode, sourceMapNodeOptions, sourceMapsFromContext } from './function-bundle';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What a function may do to the table: `read` (reads, and the updates every bound function may
 * make, see `bindTable`), `session` (that, and updating session items: a page read records its
 * session's last use) or `write` (anything to the table's items).
 */
export type TableAccess = 'read' | 'session' | 'write';

export interface ServiceFunctionProps {
  /**
   * Entry module under `functions/handlers`, without extension: `projects/get` for a route,
   * `workers/dispatch` for a function that no route reaches (a queue or stream consumer).
   */
  handler: string;
  /**
   * Shown in the console; also how tests find a function. A route's is `METHOD /path`; a
   * worker's says what it does: `webhook dispatcher: …`.
   */
  description: string;
  serviceName: string;
  memorySize?: number;
  /** 10 s unless told. */
  timeout?: Duration;
  /** /tmp size; Lambda's 512 MiB unless told (stages that check out a repository need more). */
  ephemeralStorageMiB?: number;
  /**
   * Packages shipped beside the bundle (in its node_modules) instead of bundled: TypeScript reads
   * its own lib files from disk and uses `__filename`, which an ESM bundle has not. Only the files
   * named are copied, from the project's own node_modules (no install, no network).
   */
  shippedModules?: Record<string, string[]>;
  /** Packages left out of the bundle that the code never loads at run time (optional peers). */
  unusedModules?: string[];
  /** Added to the common variables (never `LOCAL_*`: those belong to the local runtime alone). */
  environment?: Record<string, string>;
  /**
   * A role shared with other functions of the same permissions (the routes of one domain with the
   * same table access and flags); its own role unless given.
   */
  role?: FunctionRole;
  /** A log group shared with other functions (the API's, `ApiLogs`); its own log group unless given. */
  logGroup?: ILogGroup;
}

/**
 * An execution role that grants each statement once, however many of the functions sharing it
 * ask for it; cdk-nag acknowledgements about its policy are made on it.
 */
export class FunctionRole extends Construct {
  readonly role: Role;
  private readonly granted = new Set<string>();

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions.',
    });
  }

  allow(statement: PolicyStatement): void {
    const key = JSON.stringify(Stack.of(this).resolve(statement.toStatementJson()));
    if (this.granted.has(key)) return;
    this.granted.add(key);
    this.role.addToPrincipalPolicy(statement);
  }

  acknowledge(...acknowledgements: { id: string; reason: string }[]): void {
    Validations.of(this).acknowledge(...acknowledgements);
  }
}

/**
 * The one way this service builds a Lambda function: every route, the fallback and the webhook
 * workers use it. What a function may reach is added by its `bind…` methods, nothing else.
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: FunctionRole;
  readonly description: string;
  /** What its code is built from: `npm run stack-trace` rebuilds it to map a logged stack. */
  readonly bundle: { entry: string; external: string[]; shippedModules: Record<string, string[]> };

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.description = props.description;
    const localOnly = Object.keys(props.environment ?? {}).filter((name) => name.startsWith('LOCAL_'));
    if (localOnly.length > 0)
      throw new Error(`${this.node.path}: ${localOnly.join(', ')} belong to the local runtime and must not be set in AWS`);

    const logGroup = props.logGroup ?? new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    // Own role (or one shared by functions of the same permissions) instead of
    // AWSLambdaBasicExecutionRole: it may write to its functions' log groups only.
    this.role = props.role ?? new FunctionRole(this, 'Role');
    logGroup.grantWrite(this.role.role);
    if (props.logGroup) {
      this.role.acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagResource(this, props.logGroup.logGroupArn)}]`,
        reason: "A shared log group's ARN ends in :*, which is how IAM names the group's log streams.",
      });
    }

    const sourceMaps = sourceMapsFromContext(this);
    this.bundle = {
      entry: join(projectRoot, 'functions', 'handlers', `${props.handler}.ts`),
      external: [...Object.keys(props.shippedModules ?? {}), ...(props.unusedModules ?? [])],
      shippedModules: props.shippedModules ?? {},
    };
    this.function = new LambdaFunction(this, 'Function', {
      code: functionCode({ projectRoot, ...this.bundle, sourceMaps }),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.ephemeralStorageMiB ? { ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMiB) } : {}),
      tracing: Tracing.ACTIVE,
      logGroup,
      role: this.role.role,
      environment: {
        ...(sourceMaps ? { NODE_OPTIONS: sourceMapNodeOptions } : {}),
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
    });

    Validations.of(this).acknowledge({ id: 'AwsSolutions-L1', reason: 'DESIGN.md fixes the Lambda runtime at nodejs22.x.' });
  }

  /** A statement for the function's role (once, when the role is shared). */
  allow(statement: PolicyStatement): void {
    this.role.allow(statement);
  }

  /** cdk-nag acknowledgements about the function's permissions: they are findings on its role. */
  acknowledge(...acknowledgements: { id: string; reason: string }[]): void {
    this.role.acknowledge(...acknowledgements);
  }

  /**
   * Least privilege on the table. Every bound function reads, may refresh the `last_used_at` of a
   * credential or of an OAuth token's grant, and leases tokens from its rate-limit bucket
   * (UpdateItem limited to those items); `session` may also update session items (a page read
   * moves its session's `last_seen_at`, UpdateItem limited to `SESSION#…`); only `write` may change
   * anything else.
   */
  bindTable(table: ITableV2, access: TableAccess): void {
    this.allow(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
        resources: [table.tableArn, `${table.tableArn}/index/*`],
      }),
    );
    this.allow(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern, keys.rateLimitLeadingKeyPattern],
          },
        },
      }),
    );
    if (access === 'session') {
      this.allow(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.sessionLeadingKeyPattern] } },
        }),
      );
    }
    if (access === 'write') {
      this.allow(
        new PolicyStatement({
          actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
          resources: [table.tableArn],
        }),
      );
    }
    this.function.addEnvironment('TABLE_NAME', table.tableName);

    this.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResource(this, table.tableArn)}/index/*]`,
      reason: "Queries reach the service table's own secondary indexes, which IAM names only by the index/* suffix.",
    });
  }

  /**
   * May send e-mail from `sender` (an SES identity verified in the stack's account and region) and
   * nothing else of SES; the address in NOTIFICATION_SENDER.
   */
  bindMailer(sender: string): void {
    this.allow(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: sender })],
      }),
    );
    this.function.addEnvironment('NOTIFICATION_SENDER', sender);
  }

  /**
   * May query the API's log group with Logs Insights (the Requests page): StartQuery on that group
   * only; GetQueryResults and StopQuery name a query, not a log group, and IAM scopes them no further.
   */
  bindRequestLog(logGroup: ILogGroup): void {
    this.allow(new PolicyStatement({ actions: ['logs:StartQuery'], resources: [logGroup.logGroupArn] }));
    this.allow(new PolicyStatement({ actions: ['logs:GetQueryResults', 'logs:StopQuery'], resources: ['*'] }));
    this.function.addEnvironment('API_LOG_GROUP', logGroup.logGroupName);
    this.acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'logs:GetQueryResults and logs:StopQuery support no resource-level permissions; StartQuery is limited to the API log group.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${nagResource(this, logGroup.logGroupArn)}]`,
        reason: "A log group's ARN ends in :*, which is how IAM names the group itself for Logs Insights queries.",
      },
    );
  }

  /**
   * May read remediation patches: `s3:GetObject` under the `findings/` prefix of the artifact
   * bucket and `kms:Decrypt` with its key, nothing else of either (the security function writes
   * them); the bucket's name in ARTIFACT_BUCKET.
   */
  bindPatchReader(artifacts: IBucket, artifactKey: IKey): void {
    const patches = artifacts.arnForObjects(`${findingArtifactPrefix}*`);
    this.allow(new PolicyStatement({ actions: ['s3:GetObject'], resources: [patches] }));
    this.allow(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [artifactKey.keyArn] }));
    this.function.addEnvironment('ARTIFACT_BUCKET', artifacts.bucketName);
    this.acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagResource(this, patches)}]`,
      reason: 'Remediation patches live under the findings/ prefix of the artifact bucket; object ARNs need the wildcard.',
    });
  }

  /**
   * May queue webhook delivery attempts: `sqs:SendMessage` on the delivery queue, nothing else of
   * it, and the queue's URL in DELIVERY_QUEUE_URL (without it the runtime would pick the local,
   * table-backed queue).
   */
  bindDeliveryQueue(queue: IQueue): void {
    this.allow(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
    this.function.addEnvironment('DELIVERY_QUEUE_URL', queue.queueUrl);
  }
}
