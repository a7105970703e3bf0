import { arnOf } from './template-helpers';

/** The variables every function knows: Powertools' settings and the table. */
export const serviceEnvironment = (tableId: string) => ({
  POWERTOOLS_SERVICE_NAME: 'project-automation-service',
  POWERTOOLS_LOG_LEVEL: 'INFO',
  POWERTOOLS_METRICS_NAMESPACE: 'ProjectAutomationService',
  TABLE_NAME: { Ref: tableId },
});

/** The artifact bucket's name and its key's ARN, as a function that reaches artifacts knows them. */
export const artifactEnvironment = ({ bucketId, artifactKeyId }: { bucketId: string; artifactKeyId: string }) => ({
  ARTIFACT_BUCKET: { Ref: bucketId },
  ARTIFACT_KMS_KEY_ID: arnOf(artifactKeyId),
});
