import type { TestRunner } from '../../core/testing/results';

/**
 * Locally (`LOCAL_TEST_RUNNER=child-process`) tests run in sandboxed child processes; in AWS in the
 * stack's CodeBuild project (`TEST_RUN_PROJECT`, artifacts in `ARTIFACT_BUCKET`). Both are loaded
 * on first use.
 */
export const testRunnerFromEnvironment = (env: NodeJS.ProcessEnv = process.env): TestRunner => {
  let runner: Promise<TestRunner> | undefined;
  const load = async (): Promise<TestRunner> => {
    if (env.LOCAL_TEST_RUNNER === 'child-process') return (await import('./local-runner/local-test-runner')).localTestRunner();
    if (!env.TEST_RUN_PROJECT || !env.ARTIFACT_BUCKET) throw new Error('TEST_RUN_PROJECT and ARTIFACT_BUCKET must be set');
    const [{ CodeBuildClient }, { S3Client }, { codeBuildTestRunner }] = await Promise.all([
      import('@aws-sdk/client-codebuild'),
      import('@aws-sdk/client-s3'),
      import('./codebuild-test-runner'),
    ]);
    return codeBuildTestRunner({
      codebuild: new CodeBuildClient({}),
      s3: new S3Client({}),
      projectName: env.TEST_RUN_PROJECT,
      bucket: env.ARTIFACT_BUCKET,
      kmsKeyId: env.ARTIFACT_KMS_KEY_ID,
    });
  };
  return { run: async (input) => (await (runner ??= load())).run(input) };
};
