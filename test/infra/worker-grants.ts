import { keys } from '../../functions/adapters/dynamodb/keys';
import { actionsOf, asArray, joined, type Statement } from './template-helpers';

export const secretPattern = (name: string) =>
  `arn:\${AWS::Partition}:secretsmanager:\${AWS::Region}:\${AWS::AccountId}:secret:${name}-??????`;
export const foundationModel = (modelId: string) => `arn:\${AWS::Partition}:bedrock:\${AWS::Region}::foundation-model/${modelId}`;

/** Every (action, resource) pair of the statements, resources rendered by `joined`, with the condition when there is one. */
export const grantsOf = (statements: Statement[]): string[] =>
  statements
    .flatMap((statement) =>
      actionsOf(statement).flatMap((action) =>
        asArray(statement.Resource).map(
          (resource) => `${action} ${joined(resource)}${statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : ''}`,
        ),
      ),
    )
    .sort();

export interface WorkerIds {
  logGroupId: string;
  /** The failure queue. */
  queueId: string;
  tableId: string;
}

/** Writing its own log group and sending traces: what every function holds. */
export const logAndTraceGrants = (logGroupId: string): string[] => [
  `logs:CreateLogStream \${${logGroupId}.Arn}`,
  `logs:PutLogEvents \${${logGroupId}.Arn}`,
  'xray:PutTelemetryRecords *',
  'xray:PutTraceSegments *',
];

/**
 * Reading the table and its indexes, writing items, and the UpdateItem limited to the credential,
 * OAuth grant and rate-limit keys.
 */
export const tableGrants = (tableId: string): string[] => {
  const table = `\${${tableId}.Arn}`;
  return [
    `dynamodb:BatchGetItem ${table}`,
    `dynamodb:BatchGetItem ${table}/index/*`,
    `dynamodb:GetItem ${table}`,
    `dynamodb:GetItem ${table}/index/*`,
    `dynamodb:Query ${table}`,
    `dynamodb:Query ${table}/index/*`,
    `dynamodb:UpdateItem ${table} if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.credentialLeadingKeyPattern, keys.oauthGrantLeadingKeyPattern, keys.rateLimitLeadingKeyPattern] } })}`,
    `dynamodb:ConditionCheckItem ${table}`,
    `dynamodb:DeleteItem ${table}`,
    `dynamodb:PutItem ${table}`,
    `dynamodb:UpdateItem ${table}`,
  ];
};

/**
 * The grants every asynchronous worker function holds, in the form `grantsOf` renders: its own logs
 * and traces, sending to its failure queue, and the table grants. A test adds what is specific to its
 * function and compares the whole list, so a grant gained or lost anywhere still fails it.
 */
export const workerFunctionGrants = ({ logGroupId, queueId, tableId }: WorkerIds): string[] => [
  ...logAndTraceGrants(logGroupId),
  `sqs:GetQueueAttributes \${${queueId}.Arn}`,
  `sqs:GetQueueUrl \${${queueId}.Arn}`,
  `sqs:SendMessage \${${queueId}.Arn}`,
  ...tableGrants(tableId),
];

/** Getting and putting objects under `prefix` of the artifact bucket, and decrypting and generating data keys with its key. */
export const artifactObjectGrants = (
  { bucketId, artifactKeyId }: { bucketId: string; artifactKeyId: string },
  prefix: string,
): string[] => [
  `s3:GetObject \${${bucketId}.Arn}/${prefix}*`,
  `s3:PutObject \${${bucketId}.Arn}/${prefix}*`,
  `kms:Decrypt \${${artifactKeyId}.Arn}`,
  `kms:GenerateDataKey \${${artifactKeyId}.Arn}`,
];
